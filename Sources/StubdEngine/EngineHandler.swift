/// The server side of the engine seam: what the engine calls for every request it has read.
///
/// Called on the request's event-loop thread. The handler must complete `reply` exactly once: at
/// once (the common case), or later from any thread (an upstream that answers, a test that
/// decides) — the engine then hops back to the loop. Must not block: it runs on the serving path.
public protocol EngineHandler: Sendable {
    /// Decides what to answer and completes `reply`.
    func handle(_ request: IncomingRequest, reply: ReplyHandle)
}
