public import StubModel

/// A request as a recording sees it, whoever captured it — the proxy (from the engine's
/// request), a HAR file, later a dashboard button. Plain values, so recording needs no server
/// and no engine, and the work on it can move to the recorder's own queue.
public struct CapturedRequest: Sendable {
    /// The method from the request line.
    public var method: String
    /// The path as sent, percent-encoded, without query.
    public var rawPath: String
    /// The query as sent (after `?`), or nil when there is none.
    public var rawQuery: String?
    /// Headers in arrival order, names as sent.
    public var headers: [NameValue]
    /// The body.
    public var body: [UInt8]
    /// The server it was for, when that is part of what identifies it (a request through the
    /// forward proxy, which answers several hosts): recorded as the route's `host`.
    public var host: String?

    /// A request from its parts.
    public init(method: String, rawPath: String, rawQuery: String? = nil, headers: [NameValue] = [], body: [UInt8] = []) {
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
    }

    /// A request from an origin-form target (`/a/b?x=1`, as a HAR entry's URL gives it).
    public init(method: String, target: String, headers: [NameValue] = [], body: [UInt8] = []) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        self.init(method: method, rawPath: path.isEmpty ? "/" : path, rawQuery: parts.count > 1 ? String(parts[1]) : nil,
                  headers: headers, body: body)
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringCase(name) }?.value
    }
}

/// What the other side answered to a captured request.
public enum CapturedResponse: Sendable {
    /// A whole answer.
    case answered(status: Int, headers: [NameValue], body: [UInt8])
    /// A whole answer that arrived in pieces, with when each came: an event stream or NDJSON is
    /// recorded as events with their pauses (anything else as `answered`).
    case streamed(status: Int, headers: [NameValue], body: [UInt8], arrivals: [StreamArrival])
    /// An answer whose body was over `limit` bytes or did not arrive whole: counted, not written.
    case incomplete(limit: Int)
    /// No answer (unreachable, timed out): counted, not written.
    case unanswered
    /// A WebSocket conversation relayed after the upstream's `101`: recorded as a scripted
    /// `"websocket"` route.
    case conversation(CapturedConversation)
}

/// Compiled Swift targets, for naming what they cover: a recorded request a target covers is
/// named after it and its body written as that target's `sampleData` file. The server's route
/// table is one.
public protocol RecordingTargets: Sendable {
    /// The target's fixture that answers `request`, if any.
    func target(for request: CapturedRequest) -> Fixture?
}
