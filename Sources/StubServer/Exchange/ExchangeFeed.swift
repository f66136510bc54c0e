import Atomics
import Synchronization
import StubdEngine

/// The observers every exchange goes to: those a server was started with, plus any subscribed
/// while it runs (a dashboard tab, a test waiting for a request) until they unsubscribe.
///
/// The serving path reads the current list with one atomic load and no lock; a subscription
/// builds a new list and publishes it (under a lock only writers take).
final class ExchangeFeed: Sendable {
    /// One published list, immutable.
    private final class Observers: AtomicReference, Sendable {
        let list: [(id: Int, observer: any ExchangeObserver)]
        /// Those that asked to hear arrivals (`observesStarts`), usually none.
        let starters: [any ExchangeObserver]
        init(_ list: [(id: Int, observer: any ExchangeObserver)]) {
            self.list = list
            self.starters = list.map(\.observer).filter(\.observesStarts)
        }
    }

    private let current: ManagedAtomic<Observers>
    private let writers = Mutex(0)

    init(observers: [any ExchangeObserver]) {
        current = ManagedAtomic(Observers(observers.map { (id: 0, observer: $0) }))
    }

    var isEmpty: Bool { current.load(ordering: .acquiring).list.isEmpty }

    func start(_ request: IncomingRequest) {
        let starters = current.load(ordering: .acquiring).starters
        guard !starters.isEmpty else { return }
        for observer in starters { observer.exchangeStarted(request) }
    }

    func emit(_ exchange: Exchange) {
        for entry in current.load(ordering: .acquiring).list { entry.observer.exchangeEnded(exchange) }
    }

    /// Adds `observer`; the token removes it.
    func subscribe(_ observer: any ExchangeObserver) -> ExchangeSubscription {
        writers.withLock { last in
            last += 1
            current.store(Observers(current.load(ordering: .acquiring).list + [(id: last, observer: observer)]), ordering: .releasing)
            return ExchangeSubscription(id: last)
        }
    }

    /// Removes what `subscription` added (nothing if it is already gone).
    func unsubscribe(_ subscription: ExchangeSubscription) {
        writers.withLock { _ in
            current.store(Observers(current.load(ordering: .acquiring).list.filter { $0.id != subscription.id }), ordering: .releasing)
        }
    }
}

/// What `StubdServer.subscribe` returns: hand it back to `unsubscribe`.
public struct ExchangeSubscription: Sendable, Hashable {
    let id: Int
}
