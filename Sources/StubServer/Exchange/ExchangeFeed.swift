import StubModel
import Synchronization
import StubdEngine

/// The observers every exchange goes to: those a server was started with, plus any subscribed
/// while it runs (a dashboard tab, a test waiting for a request) until they unsubscribe.
///
/// The serving path reads the current list once per request (`PublishedReference`); a
/// subscription builds a new list and publishes it.
package final class ExchangeFeed: Sendable {
    /// One published list, immutable.
    final class Observers: Sendable {
        let list: [(id: Int, observer: any ExchangeObserver)]
        /// Those that asked to hear arrivals (`observesStarts`), usually none.
        let starters: [any ExchangeObserver]
        /// Each observer's `exchangeEnded`, in order: a closure is called for a retain, where
        /// calling through the list copied each (id, existential) pair out and destroyed it —
        /// about 800 instructions a request for four observers.
        let enders: [@Sendable (Exchange) -> Void]
        init(_ list: [(id: Int, observer: any ExchangeObserver)]) {
            self.list = list
            self.starters = list.map(\.observer).filter(\.observesStarts)
            self.enders = list.map { entry in { [observer = entry.observer] exchange in observer.exchangeEnded(exchange) } }
        }
    }

    private let current: PublishedReference<Observers>
    private let lastID = Mutex(0)

    package init(observers: [any ExchangeObserver]) {
        current = PublishedReference(Observers(observers.map { (id: 0, observer: $0) }))
    }

    /// The observers now (read at a request's arrival, to hear of it and to know whether anyone
    /// will want its exchange).
    var observers: Observers { current.value }

    /// Tells the observers that asked of an exchange that has just arrived (the current list).
    package func start(_ exchange: Exchange) {
        start(exchange, observers: observers)
    }

    /// Tells the observers that asked (`observesStarts`) of an exchange that has just arrived.
    func start(_ exchange: Exchange, observers: Observers) {
        let starters = observers.starters
        guard !starters.isEmpty else { return }
        for observer in starters { observer.exchangeStarted(exchange) }
    }

    /// Hands `exchange` to the observers subscribed now (one that subscribed while the request
    /// was being answered hears of it too).
    func emit(_ exchange: Exchange) {
        for ended in current.value.enders { ended(exchange) }
    }

    /// Adds `observer`; the token removes it.
    package func subscribe(_ observer: any ExchangeObserver) -> ExchangeSubscription {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        current.update { Observers($0.list + [(id: id, observer: observer)]) }
        return ExchangeSubscription(id: id)
    }

    /// Removes what `subscription` added (nothing if it is already gone).
    package func unsubscribe(_ subscription: ExchangeSubscription) {
        current.update { Observers($0.list.filter { $0.id != subscription.id }) }
    }
}

/// What `StubdServer.subscribe` returns: hand it back to `unsubscribe`.
public struct ExchangeSubscription: Sendable, Hashable {
    let id: Int
}
