import StubdEngine

/// Something that watches every exchange as it ends: the journal, the log line, later the
/// recorder and the dashboard. Called on the event-loop thread that served the request, so it
/// must be quick and must not block (take a short lock at most).
public protocol ExchangeObserver: Sendable {
    /// A request has arrived and is about to be answered (a live view shows it in flight; a test
    /// waits for it instead of sleeping). Optional.
    func exchangeStarted(_ request: IncomingRequest)
    /// One exchange has ended.
    func exchangeEnded(_ exchange: Exchange)
}

extension ExchangeObserver {
    /// Most observers only want finished exchanges.
    public func exchangeStarted(_ request: IncomingRequest) {}
}
