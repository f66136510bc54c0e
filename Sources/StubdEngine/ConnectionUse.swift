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

    /// For a first request: seconds from the accept (over HTTPS, from the handshake's end) to the
    /// request's arrival (0 otherwise).
    public var idleBeforeFirstRequest: Double
    /// When the connection was accepted (monotonic nanoseconds, `DispatchTime`); 0 when unknown.
    public var acceptedAt: UInt64

    /// Creates a use.
    public init(number: Int, request: Int, idleBeforeFirstRequest: Double = 0, acceptedAt: UInt64 = 0) {
        self.number = number
        self.request = request
        self.idleBeforeFirstRequest = idleBeforeFirstRequest
        self.acceptedAt = acceptedAt
    }

    /// Seconds a connection may wait between its accept and its first request and still count
    /// as opened for that request. A browser opens sockets ahead of need (Chromium preconnects
    /// while a page loads) and treats one as an idle socket it may retry on; a client connecting
    /// for a request sends it within a handshake's time.
    public static let preconnectThreshold = 0.05

    /// True for the connection's first request when it came at once after the connect: a
    /// client never re-sends a request that failed on a connection it opened for it (except
    /// Java's HttpClient after zero bytes; see `FaultStepDelivery`). A socket that sat idle first
    /// (a browser's preconnect) is not fresh: Chromium re-sends on it as on a reused one.
    public var isFresh: Bool { request == 1 && idleBeforeFirstRequest < Self.preconnectThreshold }
}


/// The server-wide connection counter shared by all loops.
final class ConnectionNumbers: Sendable {
    private let last = Atomic<Int>(0)

    /// The next connection number.
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }
}
