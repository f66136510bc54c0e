import CLibevent
import StubdSystem
import Synchronization

/// One worker's connections: how many are open, the deadline each has to deliver a whole request
/// head (not reset per byte, so a slowloris client cannot hold a descriptor forever), what gives
/// way at the cap, and the back-off when accept fails for lack of descriptors.
///
/// At the cap a new connection evicts the oldest connection that is not being answered — one
/// still sending its head, or idle between requests — as nginx drains idle keep-alive
/// connections; only when every connection is busy does accepting pause. So a crowd of slow or
/// idle clients cannot keep a normal client waiting.
///
/// Confined to its worker's thread. libevent 2.1 tells nothing about a connection until its first
/// request, so a new connection is met in evhttp's `bevcb`: the tracker creates its bufferevent,
/// keeps a reference to it (so it can tell later whether evhttp has freed it) and arms the head
/// deadline. At the first request it lets the reference go and follows the `evhttp_connection`
/// (close callback, a head deadline re-armed after every reply).
final class ConnectionTracker {
    private unowned let worker: Worker
    private let cap: Int
    private let headTimeout: Double
    private var listener: OpaquePointer?
    private(set) var open = 0
    private var paused = false
    private var acceptFailing = false
    private var retryTimer: OpaquePointer?
    /// Increases with every connection and reply, so the oldest idle connection is known.
    private var clock: UInt64 = 0
    /// Connections that have not sent a request yet, by bufferevent.
    private var newcomers: [OpaquePointer: Newcomer] = [:]
    /// Connections that have, by `evhttp_connection`.
    private var known: [OpaquePointer: KnownConnection] = [:]

    init(worker: Worker, cap: Int, headTimeout: Double) {
        self.worker = worker
        self.cap = max(1, cap)
        self.headTimeout = headTimeout
    }

    /// Follows `listener` (pause, resume, accept errors) and creates each new connection's
    /// bufferevent.
    func attach(to listener: OpaquePointer) {
        self.listener = listener
        let key = UInt(bitPattern: UnsafeMutableRawPointer(worker.http))
        let this = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        Self.registry.withLock { $0[key] = this }
        evconnlistener_set_error_cb(listener, onAcceptError)
        evhttp_set_bevcb(worker.http, onNewConnection, Unmanaged.passUnretained(self).toOpaque())
        retryTimer = event_new(worker.base, -1, 0, onRetryAccept, Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: - New connections

    fileprivate func newConnection() -> OpaquePointer? {
        guard let bev = bufferevent_socket_new(worker.base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return nil }
        if acceptFailing {
            acceptFailing = false
            worker.configuration.onEvent?("accepting connections again (\(open) open)")
        }
        bufferevent_incref(bev)
        clock += 1
        let newcomer = Newcomer(bev: bev, tracker: self, since: clock)
        newcomers[bev] = newcomer
        newcomer.arm(after: headTimeout, base: worker.base)
        open += 1
        if open > cap && !evictOldestIdle() { pause() }
        return bev
    }

    /// Ends the connection that has waited longest without a request being answered on it;
    /// false when every connection is busy.
    @discardableResult
    private func evictOldestIdle() -> Bool {
        var oldestNewcomer: Newcomer?
        for newcomer in newcomers.values where newcomer.since < (oldestNewcomer?.since ?? .max) { oldestNewcomer = newcomer }
        var oldestKnown: KnownConnection?
        for state in known.values {
            if let since = state.idleSince, since < (oldestKnown?.idleSince ?? .max) { oldestKnown = state }
        }
        if let newcomer = oldestNewcomer, newcomer.since < (oldestKnown?.idleSince ?? .max) {
            newcomerDeadline(newcomer)
            return true
        }
        if let state = oldestKnown {
            knownDeadline(state)
            return true
        }
        return false
    }

    /// The head deadline of a connection that has sent nothing whole yet.
    fileprivate func newcomerDeadline(_ newcomer: Newcomer) {
        newcomers[newcomer.bev] = nil
        newcomer.disarm()
        var read: bufferevent_data_cb?
        bufferevent_getcb(newcomer.bev, &read, nil, nil, nil)
        if read != nil {
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
    /// it from a newcomer into a known connection; any request stops the head deadline.
    func requestArrived(_ req: OpaquePointer) {
        guard let connection = evhttp_request_get_connection(req) else { return }
        if let state = known[connection] {
            state.disarm()
            state.idleSince = nil
        } else {
            if let bev = evhttp_connection_get_bufferevent(connection), let newcomer = newcomers.removeValue(forKey: bev) {
                newcomer.disarm()
                bufferevent_decref(bev)
            }
            let state = KnownConnection(connection: connection, tracker: self)
            known[connection] = state
            evhttp_connection_set_closecb(connection, onConnectionClosed, Unmanaged.passUnretained(state).toOpaque())
        }
        let state = known[connection]!
        evhttp_request_set_on_complete_cb(req, onReplyWritten, Unmanaged.passUnretained(state).toOpaque())
    }

    fileprivate func replyWritten(_ state: KnownConnection) {
        clock += 1
        state.idleSince = clock
        state.arm(after: headTimeout, base: worker.base)
    }

    fileprivate func knownDeadline(_ state: KnownConnection) {
        state.disarm()
        evhttp_connection_free(state.connection)
    }

    fileprivate func closed(_ state: KnownConnection) {
        state.disarm()
        known[state.connection] = nil
        connectionGone()
    }

    private func connectionGone() {
        open -= 1
        if paused && open < cap && !acceptFailing { resume() }
    }

    // MARK: - Accepting

    private func pause() {
        guard let listener, !paused else { return }
        evconnlistener_disable(listener)
        paused = true
    }

    private func resume() {
        guard let listener, paused else { return }
        evconnlistener_enable(listener)
        paused = false
    }

    /// accept failed (out of descriptors, most likely): stop accepting instead of spinning on the
    /// readable listening socket, say so once per episode, and try again shortly.
    fileprivate func acceptFailed(errno code: Errno) {
        // Out of descriptors with idle connections open: free one and let accept run again.
        if evictOldestIdle() { return }
        if !acceptFailing {
            acceptFailing = true
            worker.configuration.onEvent?("cannot accept connections (\(code)) with \(open) open; pausing accept until descriptors free up")
        }
        pause()
        var retry = timeval(seconds: 0.25)
        if let retryTimer { event_add(retryTimer, &retry) }
    }

    fileprivate func retryAccept() {
        guard acceptFailing, open < cap else { return }
        // Stay in the episode until an accept succeeds (`newConnection`), so a failing retry
        // logs nothing new.
        resume()
    }

    /// Frees timers and references at shutdown (before evhttp_free frees the connections).
    func shutdown() {
        for newcomer in newcomers.values {
            newcomer.disarm()
            bufferevent_decref(newcomer.bev)
        }
        newcomers.removeAll()
        for state in known.values {
            state.disarm()
            evhttp_connection_set_closecb(state.connection, nil, nil)
        }
        known.removeAll()
        if let retryTimer { event_free(retryTimer) }
        retryTimer = nil
        let key = UInt(bitPattern: UnsafeMutableRawPointer(worker.http))
        Self.registry.withLock { $0[key] = nil }
    }

    /// Trackers by their worker's `evhttp` address, for the accept-error callback (libevent
    /// passes it evhttp's argument, not ours). Touched only at start, stop and on accept errors.
    static let registry = Mutex<[UInt: UInt]>([:])
}

/// A connection with no request yet: its bufferevent (referenced) and head deadline.
private final class Newcomer {
    let bev: OpaquePointer
    unowned let tracker: ConnectionTracker
    /// When it connected, on the tracker's clock.
    let since: UInt64
    private var timer: OpaquePointer?

    init(bev: OpaquePointer, tracker: ConnectionTracker, since: UInt64) {
        self.bev = bev
        self.tracker = tracker
        self.since = since
    }

    func arm(after seconds: Double, base: OpaquePointer) {
        timer = event_new(base, -1, 0, onNewcomerDeadline, Unmanaged.passUnretained(self).toOpaque())
        var delay = timeval(seconds: seconds)
        if let timer { event_add(timer, &delay) }
    }

    func disarm() {
        if let timer { event_free(timer) }
        timer = nil
    }

    func fire() { tracker.newcomerDeadline(self) }
}

/// A connection that has sent requests: its head deadline runs from each reply's last byte.
private final class KnownConnection {
    let connection: OpaquePointer
    unowned let tracker: ConnectionTracker
    /// When its last reply was written (tracker clock); nil while a request is being answered.
    var idleSince: UInt64?
    private var timer: OpaquePointer?

    init(connection: OpaquePointer, tracker: ConnectionTracker) {
        self.connection = connection
        self.tracker = tracker
    }

    func arm(after seconds: Double, base: OpaquePointer) {
        if timer == nil { timer = event_new(base, -1, 0, onKnownDeadline, Unmanaged.passUnretained(self).toOpaque()) }
        var delay = timeval(seconds: seconds)
        if let timer { event_add(timer, &delay) }
    }

    func disarm() {
        if let timer { event_free(timer) }
        timer = nil
    }
}

private func onNewConnection(_ base: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) -> OpaquePointer? {
    guard let arg else { return nil }
    return Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().newConnection()
}

private func onNewcomerDeadline(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<Newcomer>.fromOpaque(arg).takeUnretainedValue().fire()
}

private func onKnownDeadline(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let state = Unmanaged<KnownConnection>.fromOpaque(arg).takeUnretainedValue()
    state.tracker.knownDeadline(state)
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

private func onRetryAccept(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ConnectionTracker>.fromOpaque(arg).takeUnretainedValue().retryAccept()
}
