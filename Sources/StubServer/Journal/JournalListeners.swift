import StubModel
import Synchronization

/// The listeners of a `RequestJournal`: a list published whole, read once per entry on the
/// serving path (nothing done when it is empty).
public final class JournalListeners: Sendable {
    private final class List: Sendable {
        let entries: [(id: Int, tell: @Sendable (JournalEntry) -> Void)]
        init(_ entries: [(id: Int, tell: @Sendable (JournalEntry) -> Void)]) { self.entries = entries }
    }

    private let current = PublishedReference(List([]))
    private let lastID = Mutex(0)
    /// How many listen, kept beside the list so the serving path asks with one atomic load
    /// instead of a lock, a retain and a release per request.
    private let listening = Atomic(0)

    /// Whether nobody listens.
    public var isEmpty: Bool { listening.load(ordering: .acquiring) == 0 }

    /// How many listen (open dashboard tabs, tests).
    public var count: Int { current.value.entries.count }

    /// Adds `tell`; the returned number removes it.
    public func add(_ tell: @escaping @Sendable (JournalEntry) -> Void) -> Int {
        let id = lastID.withLock { last in
            last += 1
            return last
        }
        current.update { List($0.entries + [(id: id, tell: tell)]) }
        listening.add(1, ordering: .releasing)
        return id
    }

    /// Removes what `add` returned `id` for.
    public func remove(_ id: Int) {
        var removed = 0
        current.update { list in
            let kept = list.entries.filter { $0.id != id }
            removed = list.entries.count - kept.count
            return List(kept)
        }
        if removed > 0 { listening.subtract(removed, ordering: .releasing) }
    }

    func tell(_ entry: JournalEntry) {
        for listener in current.value.entries { listener.tell(entry) }
    }
}
