import Synchronization

/// Which connection carried a request, and how many requests it had carried before: the journal
/// shows it so a client's silent re-send (a second attempt on a fresh connection after a
/// connection fault) reads as what it is, and routing uses `isFresh` to place fault steps.
public struct ConnectionUse: Sendable, Equatable {
    /// Numbers connections from 1 in accept order, across every loop of one server.
    public var number: Int
    /// 1 for the connection's first request, 2 for the next one on the same keep-alive
    /// connection, and so on.
    public var request: Int

    /// Creates a use.
    public init(number: Int, request: Int) {
        self.number = number
        self.request = request
    }

    /// True for the connection's first request: a client never re-sends a request that failed on
    /// a fresh connection (except Java's HttpClient after zero bytes; see `StubHandler`).
    public var isFresh: Bool { request == 1 }
}


/// The server-wide connection counter shared by all loops.
final class ConnectionNumbers: Sendable {
    private let last = Atomic<Int>(0)

    /// The next connection number.
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
