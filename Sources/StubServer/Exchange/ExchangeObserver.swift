/// Something that watches every exchange as it ends: the journal, the log line, later the
/// recorder and the dashboard. Called on the event-loop thread that served the request, so it
/// must be quick and must not block (take a short lock at most).
public protocol ExchangeObserver: Sendable {
    /// One exchange has ended.
    func exchangeEnded(_ exchange: Exchange)
}

/// The fixed list of observers a server was started with; emits each exchange to all of them.
struct ExchangeFeed: Sendable {
    let observers: [any ExchangeObserver]

    var isEmpty: Bool { observers.isEmpty }

    func emit(_ exchange: Exchange) {
        for observer in observers { observer.exchangeEnded(exchange) }
    }
}
