import CLibevent

// The two states of a connection the tracker follows (ConnectionTracker.swift): before its first
// request, by bufferevent, and after, by evhttp_connection.

/// A connection with no request yet: its bufferevent (referenced) and when it opened.
struct Newcomer {
    let bev: OpaquePointer
    /// When it connected: on the tracker's clock (ordering) and in sweeps (deadline).
    let since: UInt64
    let sinceTick: UInt64
    /// When it was accepted (monotonic nanoseconds): a connection gets a moment to send its
    /// first bytes before it can give way (`releaseGone`).
    let acceptedAt: UInt64
    /// Whether its client has sent bytes.
    let input: NewcomerInput
}

/// A connection that has sent requests; idle (waiting for its next head) since its last reply.
final class KnownConnection {
    let connection: OpaquePointer
    unowned let tracker: ConnectionTracker
    /// When its last reply was written: tracker clock (ordering) and sweep tick (deadline); nil
    /// while a request is being answered.
    @exclusivity(unchecked) var idleSince: UInt64?
    @exclusivity(unchecked) var idleTick: UInt64?
    /// Its number in the server (`ConnectionUse.number`) and the requests it has carried.
    let number: Int
    @exclusivity(unchecked) var requests = 0

    /// The client's numeric address, the same for every request on it.
    private(set) lazy var peer: String = {
        var host: UnsafeMutablePointer<CChar>?
        var port: UInt16 = 0
        evhttp_connection_get_peer(connection, &host, &port)
        return host.map { String(cString: $0) } ?? ""
    }()

    init(connection: OpaquePointer, tracker: ConnectionTracker, number: Int) {
        self.connection = connection
        self.tracker = tracker
        self.number = number
    }
}
