import Atomics
import Synchronization

/// The listeners of a `RequestJournal`: a list published with one atomic store, read with one
/// load on the serving path (no lock, nothing done when it is empty).
public final class JournalListeners: Sendable {
    private final class List: AtomicReference, Sendable {
        let entries: [(id: Int, tell: @Sendable (JournalEntry) -> Void)]
        init(_ entries: [(id: Int, tell: @Sendable (JournalEntry) -> Void)]) { self.entries = entries }
    }

    private let current = ManagedAtomic(List([]))
    private let writers = Mutex(0)

    /// Whether nobody listens.
    public var isEmpty: Bool { current.load(ordering: .acquiring).entries.isEmpty }

    /// Adds `tell`; the returned number removes it.
    public func add(_ tell: @escaping @Sendable (JournalEntry) -> Void) -> Int {
        writers.withLock { last in
            last += 1
            current.store(List(current.load(ordering: .acquiring).entries + [(id: last, tell: tell)]), ordering: .releasing)
            return last
        }
    }

    /// Removes what `add` returned `id` for.
    public func remove(_ id: Int) {
        writers.withLock { _ in
            current.store(List(current.load(ordering: .acquiring).entries.filter { $0.id != id }), ordering: .releasing)
        }
    }

    func tell(_ entry: JournalEntry) {
        for listener in current.load(ordering: .acquiring).entries { listener.tell(entry) }
    }
}
