import TargetModel

/// Decides what to do with each request; the engine calls it on its event-loop thread and
/// carries the plan out (now, after a delay, or as a fault).
///
/// Implementations must be cheap and non-blocking: they run on the serving path.
public protocol RequestResponder: Sendable {
    /// The plan for one request.
    func respond(to request: IncomingRequest) -> ResponsePlan
    /// Called once the plan has been carried out (reply written to libevent, or fault applied),
    /// with the time since the request arrived.
    func finished(_ plan: ResponsePlan, latencySeconds: Double)
}

/// What the engine does for one request, and what the log and journal need to know about it.
public struct ResponsePlan: Sendable {
    /// Reply or fault.
    public var action: RouteAction
    /// Seconds to wait first, on an event-loop timer; nil or 0 acts at once.
    public var delay: Double?
    /// True for HEAD: send the headers (with the body's Content-Length) and no body.
    public var headOnly: Bool
    /// Send the body in timed pieces.
    public var dribble: Dribble?
    /// Headers added to this reply only (CORS).
    public var extraHeaders: [NameValue] = []
    /// The matched route's name, `MISS`, or `ADMIN`.
    public var routeLabel: String
    /// The matched route's id; nil for misses and admin calls.
    public var routeID: String?
    /// For a miss: the closest route and what differed.
    public var nearMiss: String?
    /// The request, for the log line and the journal.
    public var request: IncomingRequest
    /// Whether the journal keeps this exchange (admin calls and preflights are not kept).
    public var journaled = false
    /// The request's session, for the journal.
    public var session: String?

    /// Creates a plan.
    public init(action: RouteAction, delay: Double? = nil, headOnly: Bool = false, request: IncomingRequest, routeLabel: String) {
        self.action = action
        self.delay = delay
        self.headOnly = headOnly
        self.request = request
        self.routeLabel = routeLabel
    }

    /// `GET /zen?x=1`, built only when a log line needs it.
    public var requestLine: String {
        request.rawQuery.map { "\(request.method) \(request.rawPath)?\($0)" } ?? "\(request.method) \(request.rawPath)"
    }
}
