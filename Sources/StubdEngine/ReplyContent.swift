public import StubdHTTP

/// What goes on the wire for one request: a response, a stream, or a way of failing.
public enum ReplyContent: Sendable {
    /// Send this response.
    case response(PreparedReply)
    /// Fail on the wire (see `LibeventFaultInjector`), as authored or with broken framing.
    case fault(Fault, as: FaultSending = .authored)
    /// Send this head now and the body as it is written, from any thread (see `ReplyStream`).
    case stream(ReplyStream)
    /// Send this head now and the body as timed pieces, then end it or fail (see `StreamScript`).
    case script(StreamScript)
    /// Switch to WebSocket: the `101`, then the conversation (`WebSocketConnection`).
    case upgrade(WebSocketUpgrade)
    /// Answer a proxy's `CONNECT` with `200` and join the connection to `target` (`Tunnel`).
    case tunnel(TunnelTarget)

    /// Its kind in a few words, for the log line of an answer HTTP/2 does not carry yet.
    var kindName: String {
        switch self {
        case .response: return "a response"
        case .fault: return "a fault"
        case .stream: return "a stream written as it goes (the dashboard's events, a relayed upstream stream)"
        case .script: return "a timed stream"
        case .upgrade: return "a WebSocket"
        case .tunnel: return "a tunnel"
        }
    }
}

/// A response ready to write: status, headers and body, built once per route rather than per
/// request. Immutable and shared by reference between requests and event loops.
public final class PreparedReply: Sendable {
    /// The status code.
    public let status: Int
    /// Headers in send order.
    public let headers: [NameValue]
    /// The body; empty for statuses that cannot carry one (1xx, 204, 304).
    public let body: [UInt8]
    /// Whether `headers` name a `Date` (the engine then adds none).
    let setsDate: Bool
    /// `headers`, and `Content-Length` when the status allows a body, as C strings for evhttp
    /// (formatted once; sent on every reply that may have a body, HTTP/1.0 ones included, where
    /// evhttp would send none).
    let headerBlock: HeaderBlock
    let contentLengthBlock: HeaderBlock
    /// The `Content-Length` sent (nil for a status without a body).
    let contentLength: Int?
    /// Fields sent after the body (`StubHTTPResponse.trailers`; none for a status without a body).
    public let trailers: [NameValue]

    /// Creates a reply; a body on a status that forbids one is dropped (HTTP cannot frame it), and
    /// so are its trailers.
    public init(status: Int, headers: [NameValue], body: [UInt8], trailers: [NameValue] = []) {
        self.status = status
        self.headers = headers
        self.body = PreparedReply.statusAllowsBody(status) ? body : []
        self.contentLength = PreparedReply.statusAllowsBody(status) ? self.body.count : nil
        self.trailers = PreparedReply.statusAllowsBody(status) ? trailers : []
        self.setsDate = headers.contains { $0.name.equalsIgnoringCase("Date") }
        headerBlock = HeaderBlock(headers)
        contentLengthBlock = HeaderBlock(contentLength.map { [NameValue("Content-Length", String($0))] } ?? [])
    }

    /// A reply with `prototype`'s status, headers and trailers (the formatted head shared, not
    /// made again) and another body: a templated answer whose header values are constant.
    public init(sameHeadAs prototype: PreparedReply, body: [UInt8]) {
        self.status = prototype.status
        self.headers = prototype.headers
        self.body = PreparedReply.statusAllowsBody(prototype.status) ? body : []
        self.contentLength = PreparedReply.statusAllowsBody(prototype.status) ? self.body.count : nil
        self.trailers = prototype.trailers
        self.setsDate = prototype.setsDate
        headerBlock = prototype.headerBlock
        contentLengthBlock = HeaderBlock(contentLength.map { [NameValue("Content-Length", String($0))] } ?? [])
    }

    /// The head of an answer to HEAD whose body is elsewhere (an upstream's): `Content-Length`
    /// says `declaredLength`, as the GET answer would, and no body is held.
    public init(status: Int, headers: [NameValue], declaredLength: Int) {
        self.status = status
        self.headers = headers
        self.trailers = []
        self.body = []
        self.contentLength = PreparedReply.statusAllowsBody(status) ? declaredLength : nil
        self.setsDate = headers.contains { $0.name.equalsIgnoringCase("Date") }
        headerBlock = HeaderBlock(headers)
        contentLengthBlock = HeaderBlock(contentLength.map { [NameValue("Content-Length", String($0))] } ?? [])
    }

    /// 1xx, 204 and 304 responses have no body in HTTP/1.1.
    public static func statusAllowsBody(_ status: Int) -> Bool {
        !(100..<200).contains(status) && status != 204 && status != 304
    }
}
