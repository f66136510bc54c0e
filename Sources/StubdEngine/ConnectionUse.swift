import Synchronization

/// Which connection carried a request, and how many requests it had carried before: the journal
/// shows it so a client's silent re-send (a second attempt on a fresh connection after a
/// connection fault) reads as what it is, and routing places fault steps by it: clients re-send
/// a request that failed without a byte on a reused connection (`Delivery`).
public struct ConnectionUse: Sendable, Equatable {
    /// Numbers connections from 1 in the order their first requests arrive, across every loop
    /// of one server.
    public var number: Int
    /// 1 for the connection's first request, 2 for the next one on the same keep-alive
    /// connection, and so on.
    public var request: Int

    /// Creates a use.
    public init(number: Int, request: Int) {
        self.number = number
        self.request = request
    }

}


/// The server-wide connection numbers shared by all loops.
final class ConnectionNumbers: Sendable {
    private let last = Atomic<Int>(0)

    /// The next connection number (`ConnectionUse.number`).
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
