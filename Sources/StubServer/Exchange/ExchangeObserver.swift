import StubdEngine

/// Something that watches every exchange as it ends: the journal, the log line, later the
/// recorder and the dashboard. Called on the event-loop thread that served the request, so it
/// must be quick and must not block (take a short lock at most).
public protocol ExchangeObserver: Sendable {
    /// A request has arrived and is about to be answered (a live view shows it in flight; a test
    /// waits for it instead of sleeping). Optional; called only when `observesStarts` is true.
    func exchangeStarted(_ request: IncomingRequest)
    /// One exchange has ended.
    func exchangeEnded(_ exchange: Exchange)
    /// Whether `exchangeStarted` should be called: only observers that say so are, so the
    /// serving path pays nothing for arrivals when none watches them. Default: false.
    var observesStarts: Bool { get }
}

extension ExchangeObserver {
    /// Most observers only want finished exchanges.
    public func exchangeStarted(_ request: IncomingRequest) {}

    /// Most observers only want finished exchanges.
    public var observesStarts: Bool { false }
}
