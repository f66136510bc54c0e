import Synchronization

/// Which connection carried a request, and how many requests it had carried before: the journal
/// shows it so a client's silent re-send (a second attempt on a fresh connection after a
/// connection fault) reads as what it is, and routing uses `isFresh` to place fault steps.
public struct ConnectionUse: Sendable, Equatable {
    /// Numbers connections from 1 in the order their first requests arrive, across every loop
    /// of one server.
    public var number: Int
    /// 1 for the connection's first request, 2 for the next one on the same keep-alive
    /// connection, and so on.
    public var request: Int

    /// For a first request: seconds from the accept (over HTTPS, from the handshake's end) to the
    /// request's arrival (0 otherwise).
    public var idleBeforeFirstRequest: Double
    /// When the connection was accepted (monotonic nanoseconds, `DispatchTime`); 0 when unknown.
    public var acceptedAt: UInt64
    /// The connection's place in accept order across the server, from 1 (0 when unknown): with
    /// `acceptedSoFar` of an earlier request it tells the first socket opened after that request
    /// — the one a browser preconnects when a page's answer arrives.
    public var acceptOrder: Int
    /// How many connections the server had accepted when this request arrived (0 when unknown).
    public var acceptedSoFar: Int
    /// How many other connections were open without having sent a request when this one arrived
    /// (sockets a client opened ahead of need — or had just closed, until the next sweep).
    public var unusedAtArrival: Int

    /// Creates a use.
    public init(number: Int, request: Int, idleBeforeFirstRequest: Double = 0, acceptedAt: UInt64 = 0,
                acceptOrder: Int = 0, acceptedSoFar: Int = 0, unusedAtArrival: Int = 0) {
        self.number = number
        self.request = request
        self.idleBeforeFirstRequest = idleBeforeFirstRequest
        self.acceptedAt = acceptedAt
        self.acceptOrder = acceptOrder
        self.acceptedSoFar = acceptedSoFar
        self.unusedAtArrival = unusedAtArrival
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


/// The server-wide connection counters shared by all loops.
final class ConnectionNumbers: Sendable {
    private let last = Atomic<Int>(0)
    private let accepts = Atomic<Int>(0)
    private let unused = Atomic<Int>(0)

    /// The next connection number (`ConnectionUse.number`).
    func next() -> Int { last.add(1, ordering: .relaxed).newValue }

    /// Counts an accepted connection (open and unused until `used()`); its place in accept order.
    func accepted() -> Int {
        unused.add(1, ordering: .relaxed)
        return accepts.add(1, ordering: .relaxed).newValue
    }

    /// Counts out an accepted connection that sent its first request or was closed before one.
    func used() { unused.subtract(1, ordering: .relaxed) }

    /// Connections accepted so far.
    var acceptedSoFar: Int { accepts.load(ordering: .relaxed) }

    /// Accepted connections open without a request.
    var unusedNow: Int { unused.load(ordering: .relaxed) }
}
