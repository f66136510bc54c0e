/// The server side of the engine seam: what the engine calls for every request it has read.
///
/// A request's path is linear: the handler decides and returns, then the engine writes (as a
/// hummingbird responder returns its response). Called on the request's event-loop thread; must
/// not block, as it runs on the serving path.
public protocol EngineHandler: Sendable {
    /// Decides what to answer. Return `.now` for what is known now (the common case), or
    /// `.later` and complete `reply` exactly once afterwards, from any thread (an upstream that
    /// answers, a recorder that finishes its files, a test that decides): the engine then hops
    /// back to the request's loop.
    func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision
}

/// What a handler decided for one request.
public enum HandlerDecision: Sendable {
    /// Carry this plan out (after its delay); `listener` hears when it is done.
    case reply(ReplyPlan, listener: (any ReplyListener)? = nil)
    /// The handler completes the request's `ReplyHandle` itself, later. The loop serves other
    /// requests meanwhile; a completion before the handler returns waits for the next turn of
    /// the loop, and a second completion is ignored.
    case later
}
