import StubModel
import StubdEngine

/// Something that watches every exchange as it ends — the journal, the log line, the metrics,
/// webhooks, the recorder, a test waiting for a request: each gets the one `Exchange` whole, after
/// its reply has been carried out. Called on the event-loop thread that served the request, so it
/// must be quick and must not block (take a short lock at most).
public protocol ExchangeObserver: Sendable {
    /// An exchange has arrived and is about to be decided (a live view shows it in flight; a test
    /// waits for it instead of sleeping): its request, session and arrival time are set, its
    /// resolution is `.arriving`. Optional; called only when `observesStarts` is true.
    func exchangeStarted(_ exchange: Exchange)
    /// One exchange has ended: resolved, answered, timed.
    func exchangeEnded(_ exchange: Exchange)
    /// Whether `exchangeStarted` should be called: only observers that say so are, so the
    /// serving path pays nothing for arrivals when none watches them. Default: false.
    var observesStarts: Bool { get }
}

extension ExchangeObserver {
    /// Most observers only want finished exchanges.
    public func exchangeStarted(_ exchange: Exchange) {}

    /// Most observers only want finished exchanges.
    public var observesStarts: Bool { false }
}
