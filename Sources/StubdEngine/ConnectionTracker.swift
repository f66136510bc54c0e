import CLibevent
import Dispatch
import CLibeventTLS
import StubdSystem
import Synchronization

/// One worker's connections: how many are open, the deadline each has to deliver a whole request
/// head (not reset per byte, so a slowloris client cannot hold a descriptor forever), what gives
/// way at the cap, and the back-off when accept fails for lack of descriptors.
///
/// At the cap a new connection makes room: first every connection whose client has already
/// closed it (seen with a peek: a connect-and-close flood's), then the oldest connection that is
/// silent — connected for at least 25 ms with nothing sent, or idle between requests, as nginx
/// drains idle keep-alive connections. A connection whose client has sent bytes (its request waits to be
/// read, or a TLS handshake has begun) is never made room with: when every connection is busy or
/// sending, accepting pauses until one is answered. So neither a flood nor a crowd of idle
/// clients can close a normal client's connection before its request is read.
///
/// Confined to its worker's thread. libevent 2.1 tells nothing about a connection until its first
/// request, so a new connection is met in evhttp's `bevcb`: the tracker creates its bufferevent
/// and keeps a reference to it (so it can tell later whether evhttp has freed it). At the first
/// request it lets the reference go and follows the `evhttp_connection` (close callback, and the
/// time its last reply was written). One sweep timer per worker, ticking a few times per head
/// timeout, closes whatever has waited too long — no timer is armed per request.
/// The fields touched per request skip Swift's run-time exclusivity check (`@exclusivity(unchecked)`):
/// one thread, no overlapping access, and the check cost about 75 instructions per access.
final class ConnectionTracker {
    unowned let worker: Worker
    /// The evhttp whose connections these are.
    private let http: OpaquePointer
    /// For an HTTPS front: each connection's bufferevent is an OpenSSL one.
    let tls: TLSServerContext?
    /// Whether this front is HTTPS.
    var isTLS: Bool { tls != nil }
    /// What the front is for: HTTP/2 is taken by its preface on the direct ports and in
    /// intercepted tunnels — in clear (h2c with prior knowledge) and over TLS, where a client sends
    /// the preface once ALPN chose `h2`; the proxy port itself speaks HTTP/1.1 to its clients.
    let kind: Worker.FrontKind
    /// The worker's budget, shared with its other front.
    private let budget: ConnectionBudget
    private let headTimeout: Double
    private var listener: OpaquePointer?
    private var paused = false
    private var acceptFailing = false
    private var retryTimer: OpaquePointer?
    private var sweepTimer: OpaquePointer?
    /// Re-enables accepting at the loop's next turn after a yield (`acceptsPerTurn`).
    private var yieldTimer: OpaquePointer?
    /// Looks for room again while the budget has paused accepting (`ConnectionBudget.retryRoom`).
    private var roomTimer: OpaquePointer?
    /// Accepts since the last yield.
    private var acceptsSinceYield = 0
    /// Whether accepting is off for a yield only (the next turn turns it on again).
    private var yielding = false
    /// Connections accepted before the listener yields a turn of the loop: libevent 2.1 accepts
    /// until the backlog is empty, so clients that reconnect as soon as they are closed (an
    /// idle-reopen flood) would otherwise hold the loop in one listener's accept callback, and
    /// the other port and every open connection would wait.
    static let acceptsPerTurn = 32
    /// Sweeps so far; a connection's deadline is `deadlineTicks` sweeps after it became idle.
    @exclusivity(unchecked) private var tick: UInt64 = 0
    private let sweepInterval: Double
    private let deadlineTicks: UInt64
    /// Connections that have not sent a request yet, by bufferevent.
    @exclusivity(unchecked) var newcomers: [OpaquePointer: Newcomer] = [:]
    /// Connections that have, by `evhttp_connection`.
    @exclusivity(unchecked) private var known: [OpaquePointer: KnownConnection] = [:]

    let numbers: ConnectionNumbers

    init(worker: Worker, http: OpaquePointer, tls: TLSServerContext?, kind: Worker.FrontKind, budget: ConnectionBudget, headTimeout: Double,
         numbers: ConnectionNumbers) {
        self.worker = worker
        self.kind = kind
        self.http = http
        self.tls = tls
        self.numbers = numbers
        self.budget = budget
        self.headTimeout = headTimeout
        // At most half a second late, and at least four sweeps per timeout.
        sweepInterval = max(0.05, min(0.5, headTimeout / 4))
        deadlineTicks = UInt64((headTimeout / sweepInterval).rounded(.up))
    }

    /// Follows `listener` (pause, resume, accept errors) and creates each new connection's
    /// bufferevent.
    func attach(to listener: OpaquePointer) {
        self.listener = listener
        let key = UInt(bitPattern: UnsafeMutableRawPointer(http))
        let this = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        Self.registry.withLock { $0[key] = this }
        evconnlistener_set_error_cb(listener, onAcceptError)
        evhttp_set_bevcb(http, onNewConnection, Unmanaged.passUnretained(self).toOpaque())
        retryTimer = event_new(worker.base, -1, 0, onRetryAccept, Unmanaged.passUnretained(self).toOpaque())
        yieldTimer = event_new(worker.base, -1, 0, onYieldEnd, Unmanaged.passUnretained(self).toOpaque())
        roomTimer = event_new(worker.base, -1, 0, onRoomRetry, Unmanaged.passUnretained(self).toOpaque())
        sweepTimer = event_new(worker.base, -1, Int16(EV_PERSIST), onSweep, Unmanaged.passUnretained(self).toOpaque())
        var interval = System.timeValue(seconds: sweepInterval)
        if let sweepTimer { event_add(sweepTimer, &interval) }
        budget.add(self)
    }

    /// Closes the connections whose head deadline has passed; lets go at once of newcomers evhttp
    /// has already dropped (a client that connected and left without a byte), so their
    /// descriptors close now rather than at the deadline; under pressure, gives connections that
    /// have sent nothing one whole sweep interval.
    fileprivate func sweep() {
        tick += 1
        releaseDropped()
        if budget.underPressure {
            // At least one whole sweep interval (0.5–1 s): long enough for a real client's TLS
            // handshake and head, short for a connect-only flood.
            for newcomer in newcomers.values where newcomer.sinceTick + 2 <= tick { newcomerDeadline(newcomer) }
        }
        guard tick > deadlineTicks else { return }
        let limit = tick - deadlineTicks
        for newcomer in newcomers.values where newcomer.sinceTick <= limit { newcomerDeadline(newcomer) }
        for state in known.values {
            if let idle = state.idleTick, idle <= limit { knownDeadline(state) }
        }
    }

    // MARK: - New connections

    fileprivate func newConnection() -> OpaquePointer? {
        guard let bev = makeBufferevent() else { return nil }
        if acceptFailing {
            acceptFailing = false
            worker.configuration.onEvent?("accepting connections again (\(budget.open) open)")
        }
        bufferevent_incref(bev)
        acceptsSinceYield += 1
        if acceptsSinceYield >= Self.acceptsPerTurn { yieldTurn() }
        let takeForHTTP2: (() -> Bool)? = worker.configuration.http2 && kind.takesHTTP2 ? { [unowned self] in self.takeForHTTP2(bev) } : nil
        let newcomer = Newcomer(bev: bev, since: budget.tick(), sinceTick: tick, acceptedAt: DispatchTime.now().uptimeNanoseconds,
                                input: NewcomerInput(bev, bodyLimit: worker.configuration.maxBodyBytes, onEvent: worker.configuration.onEvent,
                                                     takeForHTTP2: takeForHTTP2))
        // Admitted before it is listed, so making room never picks the connection being made
        // (evhttp has not taken its bufferevent yet, so it would look already dropped).
        budget.admitted()
        newcomers[bev] = newcomer
        return bev
    }

    /// A plain bufferevent, or an OpenSSL one accepting a TLS handshake (a client that closes
    /// without a TLS close_notify is an ordinary end, as for plain HTTP).
    private func makeBufferevent() -> OpaquePointer? {
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)
        guard let tls else { return bufferevent_socket_new(worker.base, -1, options) }
        guard let ssl = tls.session() else { return nil }
        guard let bev = bufferevent_openssl_socket_new(worker.base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING, options) else {
            SSL_free(ssl)
            return nil
        }
        bufferevent_openssl_set_allow_dirty_shutdown(bev, 1)
        return bev
    }

    /// Lets go of every newcomer evhttp has already dropped (a client that connected and left
    /// without a byte: evhttp freed its connection, only this tracker's reference keeps the
    /// descriptor open); returns how many. Runs each sweep and whenever the budget is spent, so a
    /// connect-and-close flood gives its descriptors back in one pass instead of one per accept.
    @discardableResult
    func releaseDropped() -> Int {
        var released = 0
        for newcomer in newcomers.values where !Self.evhttpHolds(newcomer.bev) {
            newcomerDeadline(newcomer)
            released += 1
        }
        return released
    }

    /// Closes every newcomer whose client has closed it (evhttp dropped it, or a peek sees the
    /// end) and returns how many; notes the oldest newcomer that is still silent, for `evictOldest`.
    /// One pass per room made: a connect-and-close flood's newcomers all go in it.
    func releaseGone(urgent: Bool = false) -> Int {
        var released = 0
        oldestSilent = nil
        oldestSending = nil
        // Out of descriptors (`urgent`), a slow head gets no grace: something must go. (A new
        // connection not yet heard keeps its moment: it is likely the client that needs room.)
        let now = DispatchTime.now().uptimeNanoseconds
        let sendingGrace = urgent ? 0 : Self.sendingGraceNanoseconds
        for newcomer in newcomers.values {
            let age = now &- newcomer.acceptedAt
            switch peerState(of: newcomer) {
            case .gone:
                newcomerDeadline(newcomer)
                released += 1
            case .silent:
                // A connection gets a moment to send its first bytes before it can give way: a
                // client between connect() and send() is not silent, only not yet heard.
                guard age >= Self.graceNanoseconds else { continue }
                if newcomer.since < (oldestSilent?.since ?? .max) { oldestSilent = newcomer }
            case .sent:
                // A client's head is read within a loop turn; one still incomplete after its
                // grace is a slow (or slowloris) client, and may give way too.
                guard age >= sendingGrace else { continue }
                if newcomer.since < (oldestSending?.since ?? .max) { oldestSending = newcomer }
            }
        }
        return released
    }

    /// How long a new connection that has sent nothing is left alone before it can be closed to
    /// make room: 25 ms.
    static let graceNanoseconds: UInt64 = 25_000_000
    /// How long one that has sent part of its head is: 50 ms — a head on its way is read within
    /// a turn of the loop; one still incomplete after that is a slow (or slowloris) client.
    static let sendingGraceNanoseconds: UInt64 = 50_000_000

    /// The oldest silent newcomer, and the oldest still sending its head, `releaseGone` saw.
    private var oldestSilent: Newcomer?
    private var oldestSending: Newcomer?

    /// When this front's oldest newcomer still sending its head past its grace connected.
    func oldestSendingSince() -> UInt64? { oldestSending?.since }

    /// Ends that newcomer; false when there is none.
    @discardableResult
    func evictOldestSending() -> Bool {
        guard let newcomer = oldestSending, newcomers[newcomer.bev] != nil else { return false }
        oldestSending = nil
        newcomerDeadline(newcomer)
        return true
    }

    /// What a newcomer's client has done: closed the connection, sent nothing, or sent bytes
    /// (evhttp holds part of a head, a TLS handshake has begun, or bytes wait in the socket).
    private func peerState(of newcomer: Newcomer) -> System.PeerState {
        guard Self.evhttpHolds(newcomer.bev) else { return .gone }
        if newcomer.input.sent { return .sent }
        // A TLS handshake under way (the ClientHello read, not finished yet): bytes the client sent
        // that no socket peek would see any more.
        if tls != nil, let ssl = bufferevent_openssl_get_ssl(newcomer.bev), SSL_get_state(ssl) != TLS_ST_BEFORE, SSL_is_init_finished(ssl) == 0 {
            return .sent
        }
        let fd = bufferevent_getfd(newcomer.bev)
        return fd >= 0 ? System.peerState(fd) : .gone
    }

    /// When this front's oldest silent connection became silent (budget clock): a newcomer that
    /// has sent nothing (after `releaseGone`), or a connection idle between requests; nil when
    /// none is.
    func oldestSilentSince() -> UInt64? {
        var oldest = oldestSilent?.since
        for state in known.values {
            if let since = state.idleSince, since < (oldest ?? .max) { oldest = since }
        }
        return oldest
    }

    /// Ends this front's connection that has been silent longest; false when none is.
    @discardableResult
    func evictOldestSilent() -> Bool {
        var oldestKnown: KnownConnection?
        for state in known.values {
            if let since = state.idleSince, since < (oldestKnown?.idleSince ?? .max) { oldestKnown = state }
        }
        if let newcomer = oldestSilent, newcomers[newcomer.bev] != nil, newcomer.since < (oldestKnown?.idleSince ?? .max) {
            oldestSilent = nil
            newcomerDeadline(newcomer)
            return true
        }
        if let state = oldestKnown {
            knownDeadline(state)
            return true
        }
        return false
    }

    /// Whether evhttp still owns `bev` (it clears the callbacks when it frees its connection).
    static func evhttpHolds(_ bev: OpaquePointer) -> Bool {
        var read: bufferevent_data_cb?
        bufferevent_getcb(bev, &read, nil, nil, nil)
        return read != nil
    }

    /// The head deadline of a connection that has sent nothing whole yet.
    fileprivate func newcomerDeadline(_ newcomer: Newcomer) {
        newcomers[newcomer.bev] = nil
        newcomer.input.stopWatching()
        if Self.evhttpHolds(newcomer.bev) {
            // Still evhttp's: end it from below; evhttp sees EOF and frees it, which closes the
            // descriptor once our reference is gone too.
            let fd = bufferevent_getfd(newcomer.bev)
            if fd >= 0 { System.shutdown(fd) }
        }
        bufferevent_decref(newcomer.bev)
        connectionGone()
    }

    // MARK: - Requests

    /// Called for every request before the handler: the first request of a connection turns
    /// it from a newcomer into a known connection (and numbers it); any request stops the head
    /// deadline. Returns the connection and the request's place on it.
    /// The connection's use by this request and the client's address (read once per connection).
    func requestArrived(_ req: OpaquePointer) -> (use: ConnectionUse, peer: String)? {
        guard let connection = evhttp_request_get_connection(req) else { return nil }
        let state: KnownConnection
        if let existing = known[connection] {
            state = existing
            state.idleSince = nil
            state.idleTick = nil
        } else {
            if let bev = evhttp_connection_get_bufferevent(connection), let newcomer = newcomers.removeValue(forKey: bev) {
                newcomer.input.stopWatching()
                bufferevent_decref(bev)
            } else {
                // Counted out already (its head deadline ended it, but evhttp had the request
                // read): counted in again, so its close is not counted out twice.
                budget.admitted()
            }
            state = KnownConnection(connection: connection, tracker: self, number: numbers.next())
            known[connection] = state
            evhttp_connection_set_closecb(connection, onConnectionClosed, Unmanaged.passUnretained(state).toOpaque())
        }
        evhttp_request_set_on_complete_cb(req, onReplyWritten, Unmanaged.passUnretained(state).toOpaque())
        state.requests += 1
        return (ConnectionUse(number: state.number, request: state.requests), state.peer)
    }

    fileprivate func replyWritten(_ state: KnownConnection) {
        state.idleSince = budget.tick()
        state.idleTick = tick
    }

    fileprivate func knownDeadline(_ state: KnownConnection) {
        evhttp_connection_free(state.connection)
    }

    fileprivate func closed(_ state: KnownConnection) {
        known[state.connection] = nil
        worker.connectionClosed(state.connection)
        connectionGone()
    }

    func connectionGone() {
        budget.released()
    }

    // MARK: - Accepting

    /// Turns accepting off until the loop's next turn (libevent's accept loop stops when the
    /// callback disables the listener), so open connections and the other port are served first.
    private func yieldTurn() {
        acceptsSinceYield = 0
        guard let listener, !paused, !yielding, let yieldTimer else { return }
        yielding = true
        evconnlistener_disable(listener)
        var now = System.timeValue(seconds: 0)
        event_add(yieldTimer, &now)
    }

    /// Asks the budget to look for room again once a new connection's grace has passed.
    func armRoomRetry() {
        guard let roomTimer, event_pending(roomTimer, Int16(EV_TIMEOUT), nil) == 0 else { return }
        var grace = System.timeValue(seconds: Double(Self.graceNanoseconds) / 1e9)
        event_add(roomTimer, &grace)
    }

    fileprivate func roomRetry() {
        budget.retryRoom()
    }

    fileprivate func yieldEnded() {
        guard yielding else { return }
        yielding = false
        if let listener, !paused, !stopped { evconnlistener_enable(listener) }
    }

    /// Stops accepting for good (the server is draining): nothing turns it on again.
    func stopAccepting() {
        stopped = true
        if let listener { evconnlistener_disable(listener) }
    }

    /// Set by `stopAccepting`.
    private var stopped = false

    /// Stops accepting (the budget is spent, or accept fails).
    func pause() {
        guard let listener, !paused else { return }
        evconnlistener_disable(listener)
        paused = true
    }

    /// Accepts again, unless this front is backing off a failing accept (its retry resumes it).
    func resumeUnlessFailing() {
        if !acceptFailing { resume() }
    }

    private func resume() {
        guard let listener, paused else { return }
        paused = false
        // A yield under way turns accepting on itself at the next turn.
        if !yielding, !stopped { evconnlistener_enable(listener) }
    }

    /// accept failed (out of descriptors, most likely): stop accepting instead of spinning on the
    /// readable listening socket, say so once per episode, and try again shortly.
    fileprivate func acceptFailed(errno code: Errno) {
        // Out of descriptors with idle connections open: free one and let accept run again.
        if budget.evictOldestIdle(urgent: true) { return }
        if !acceptFailing {
            acceptFailing = true
            worker.configuration.onEvent?("cannot accept connections (\(code)) with \(budget.open) open; pausing accept until descriptors free up")
        }
        pause()
        var retry = System.timeValue(seconds: 0.25)
        if let retryTimer { event_add(retryTimer, &retry) }
    }

    fileprivate func retryAccept() {
        guard acceptFailing, budget.open < budget.cap else { return }
        // Stay in the episode until an accept succeeds (`newConnection`), so a failing retry
        // logs nothing new.
        resume()
    }

    /// Frees timers and references at shutdown (before evhttp_free frees the connections).
    func shutdown() {
        for newcomer in newcomers.values {
            newcomer.input.stopWatching()
            bufferevent_decref(newcomer.bev)
        }
        newcomers.removeAll()
        for state in known.values { evhttp_connection_set_closecb(state.connection, nil, nil) }
        known.removeAll()
        if let retryTimer { event_free(retryTimer) }
        retryTimer = nil
        if let yieldTimer { event_free(yieldTimer) }
        yieldTimer = nil
        if let roomTimer { event_free(roomTimer) }
        roomTimer = nil
        if let sweepTimer { event_free(sweepTimer) }
        sweepTimer = nil
        let key = UInt(bitPattern: UnsafeMutableRawPointer(http))
        Self.registry.withLock { $0[key] = nil }
    }

    /// Trackers by their worker's `evhttp` address, for the accept-error callback (libevent
    /// passes it evhttp's argument, not ours). Touched only at start, stop and on accept errors.
    static let registry = Mutex<[UInt: UInt]>([:])
}

private func onSweep(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().sweep()
}

private func onNewConnection(_ base: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let arg else { return nil }
    return Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().newConnection()
}

private func onReplyWritten(_ req: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let state = Unmanaged<KnownConnection>.fromOpaque(arg).takeUnretainedValue()
    state.tracker.replyWritten(state)
}

private func onConnectionClosed(_ connection: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let state = Unmanaged<KnownConnection>.fromOpaque(arg).takeUnretainedValue()
    state.tracker.closed(state)
}

private func onAcceptError(_ listener: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    // The listener's argument is evhttp's own (its `evhttp`), so the tracker is found by it.
    let code = System.lastError
    guard let arg, let address = ConnectionTracker.registry.withLock({ $0[UInt(bitPattern: arg)] }),
          let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(pointer).takeUnretainedValue().acceptFailed(errno: code)
}

private func onRoomRetry(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().roomRetry()
}

private func onYieldEnd(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().yieldEnded()
}

private func onRetryAccept(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().retryAccept()
}
