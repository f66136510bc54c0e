public import StubdHTTP

/// Everything the engine needs to carry out one answer: what to send, when, and how fast.
/// Faults, delays and dribbles are values here; the engine applies them (`Worker.execute`,
/// `LibeventFaultInjector`, `ScriptPlayer`).
public struct ReplyPlan: Sendable {
    /// The response or fault.
    public var content: ReplyContent
    /// Seconds to wait first, on an event-loop timer; nil or 0 acts at once.
    public var delay: Double?
    /// True for HEAD: send the headers (with the body's Content-Length) and no body.
    public var headOnly: Bool
    /// Send the body in timed pieces.
    public var dribble: Dribble?
    /// Headers added to this reply only (CORS).
    public var extraHeaders: [NameValue]
    /// The engine already sent this answer (a relayed upstream answer): only the bookkeeping
    /// (the listener) is left to do.
    public var alreadySent = false

    /// Creates a plan.
    public init(content: ReplyContent, delay: Double? = nil, headOnly: Bool = false, dribble: Dribble? = nil, extraHeaders: [NameValue] = []) {
        self.content = content
        self.delay = delay
        self.headOnly = headOnly
        self.dribble = dribble
        self.extraHeaders = extraHeaders
    }
}

/// Told once when the engine has carried a plan out (the reply handed to the socket, the fault
/// applied, or the connection gone before that), on the loop's thread.
public protocol ReplyListener: AnyObject, Sendable {
    /// `latencySeconds` runs from the request's arrival, delays included.
    func replyFinished(latencySeconds: Double)
}

/// What one engine can do, so routing can warn about stubs that could never be reached instead
/// of repeating the engine's limits.
public struct EngineCapabilities: Sendable {
    /// The request methods the engine can receive; anything else is refused before routing.
    public let methods: [String]
    /// Whether connections are encrypted.
    public let tls: Bool

    /// A capability set, for an engine other than libevent's.
    public init(methods: [String], tls: Bool) {
        self.methods = methods
        self.tls = tls
    }

    /// libevent 2.1's: its nine methods, plain or over TLS.
    public static let libevent = EngineCapabilities(methods: HTTPMethods.names, tls: true)
}
