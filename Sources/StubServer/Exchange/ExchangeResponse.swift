public import StubModel
import StubdEngine

/// What an exchange answered, when it answered with a response (a fault sends none): status,
/// every header sent — the answer's own and those added on the way (CORS, `Connection: close`) —
/// and the body, read from the answer itself (shared, never copied unless asked for).
public struct ExchangeResponse: Sendable {
    /// Body bytes `body()` gives by default: an observer keeping exchanges keeps at most this much
    /// of each.
    public static let bodyLimit = 64 * 1024

    /// The status sent.
    public let status: Int
    /// Whether the body was left out (a HEAD request).
    public let headOnly: Bool
    private let reply: PreparedReply
    private let extraHeaders: [NameValue]

    /// Made for every exchange while any observer listens, so it only keeps references; the
    /// header list is joined when an observer asks for it.
    init(reply: PreparedReply, extraHeaders: [NameValue], headOnly: Bool, declaredSize: Int? = nil) {
        self.reply = reply
        self.status = reply.status
        self.extraHeaders = extraHeaders
        self.headOnly = headOnly
        self.declaredSize = declaredSize
    }

    private let declaredSize: Int?
    /// A body kept beside a head that cannot carry one: a WebSocket conversation's messages
    /// under its `101`.
    private var conversation: [UInt8]?

    /// The `101` of a WebSocket, with the conversation's messages as its body (JSON).
    init(switching head: PreparedReply, conversation: [UInt8], size: Int) {
        self.init(reply: head, extraHeaders: [], headOnly: false, declaredSize: size)
        self.conversation = conversation
    }

    /// The headers sent, in order (stubd's framing headers — length, chunking — aside).
    public var headers: [NameValue] { extraHeaders.isEmpty ? reply.headers : reply.headers + extraHeaders }

    /// The body's size as answered (the upstream's for a relayed answer whose bytes were not kept).
    public var bodySize: Int { headOnly ? 0 : declaredSize ?? reply.body.count }

    /// This response holding at most `limit` body bytes: itself when the body fits (a reference,
    /// no copy), else a copy of the first `limit` bytes — for keeping per-request answers (an
    /// upstream's, a miss report) without keeping large bodies alive.
    public func bounded(_ limit: Int = ExchangeResponse.bodyLimit) -> ExchangeResponse {
        guard reply.body.count > limit else { return self }
        let kept = PreparedReply(status: reply.status, headers: reply.headers, body: Array(reply.body.prefix(limit)))
        return ExchangeResponse(reply: kept, extraHeaders: extraHeaders, headOnly: headOnly, declaredSize: reply.body.count)
    }

    /// The first `limit` bytes of the body sent.
    public func body(upTo limit: Int = ExchangeResponse.bodyLimit) -> [UInt8] {
        if let conversation { return Array(conversation.prefix(max(0, limit))) }
        return headOnly ? [] : Array(reply.body.prefix(max(0, limit)))
    }
}
