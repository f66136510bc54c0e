/// One worker's connection budget, shared by all its fronts (HTTP and HTTPS): one count of open
/// connections, one cap, one clock ordering idle connections, so at the cap the oldest idle
/// connection of *any* front gives way and a flood on one port cannot starve the other.
///
/// Confined to the worker's thread, like its trackers.
final class ConnectionBudget {
    /// Connections at most, across fronts.
    let cap: Int
    /// Open now, across fronts: every connection is counted in once when accepted (or when a
    /// request arrives on one already counted out) and out once when it goes.
    private(set) var open = 0
    /// Increases with every connection and reply, so the oldest idle connection is known.
    private(set) var clock: UInt64 = 0
    private var trackers: [ConnectionTracker] = []
    /// Whether the fronts stopped accepting because every connection is busy.
    private(set) var paused = false
    /// Connections a WebSocket conversation or a streamed answer holds after its request was
    /// answered: in the budget like every other (250 held WebSockets under `ulimit -n 256` once let
    /// no other request in), and the first to give way once no silent connection is left.
    private var held: [ObjectIdentifier: HeldConnection] = [:]

    init(cap: Int) {
        self.cap = max(1, cap)
    }

    /// Whether open connections have reached three quarters of the cap: connections that have
    /// not sent a whole head are then given a short deadline (a connect-only flood yields early).
    var underPressure: Bool { open * 4 >= cap * 3 }

    func add(_ tracker: ConnectionTracker) { trackers.append(tracker) }

    func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// A connection was accepted (or reappeared with a request): counts it, and at the cap
    /// makes room by ending the oldest idle connection of any front, or pauses accepting.
    func admitted() {
        open += 1
        if open > cap && !evictOldestIdle() { pauseAll() }
    }

    /// A connection went.
    func released() {
        open -= 1
        if paused && open < cap {
            paused = false
            for tracker in trackers { tracker.resumeUnlessFailing() }
        }
    }

    /// Makes room: first lets go of every connection whose client has closed it (their
    /// descriptors close at once), else ends the connection, of any front, that has been silent
    /// longest (sent nothing for 25 ms, or idle between requests), else the WebSocket or stream
    /// that carried nothing for longest, else the oldest still sending its head after 50 ms;
    /// false when every connection is being answered or has just started sending — those are
    /// never closed to make room.
    /// `urgent` (accept failed for lack of descriptors) gives no grace to new connections.
    @discardableResult
    func evictOldestIdle(urgent: Bool = false) -> Bool {
        var released = 0
        for tracker in trackers { released += tracker.releaseGone(urgent: urgent) }
        if released > 0 { return true }
        var silent: (since: UInt64, tracker: ConnectionTracker)?
        for tracker in trackers {
            if let since = tracker.oldestSilentSince(), since < (silent?.since ?? .max) { silent = (since, tracker) }
        }
        if let silent { return silent.tracker.evictOldestSilent() }
        if evictLeastRecentlyHeld() { return true }
        var sending: (since: UInt64, tracker: ConnectionTracker)?
        for tracker in trackers {
            if let since = tracker.oldestSendingSince(), since < (sending?.since ?? .max) { sending = (since, tracker) }
        }
        return sending?.tracker.evictOldestSending() ?? false
    }

    // MARK: - Held connections

    /// A WebSocket conversation or a stream now holds its connection; `leave` ends it to make
    /// room (a WebSocket with a close frame 1001, a stream as if its client had left).
    func hold(_ key: ObjectIdentifier, leave: @escaping () -> Void) {
        held[key] = HeldConnection(lastActive: tick(), leave: leave)
    }

    /// The held connection carried something (a client's frame, a stream's bytes).
    func heldActive(_ key: ObjectIdentifier) {
        held[key]?.lastActive = tick()
    }

    /// It ended by itself.
    func letGo(_ key: ObjectIdentifier) {
        held[key] = nil
    }

    /// Ends the held connection that carried nothing for longest; false when none is held.
    private func evictLeastRecentlyHeld() -> Bool {
        guard let oldest = held.min(by: { $0.value.lastActive < $1.value.lastActive }) else { return false }
        held[oldest.key] = nil
        oldest.value.leave()
        return true
    }

    /// Stops every front accepting, and looks again for room once a new connection's grace
    /// (`ConnectionTracker.graceNanoseconds`) has passed: silent connections too young to give way
    /// now may by then.
    private func pauseAll() {
        paused = true
        for tracker in trackers { tracker.pause() }
        trackers.first?.armRoomRetry()
    }

    /// The room retry: while still paused, makes room if it can (which resumes accepting), else
    /// waits for the next one.
    func retryRoom() {
        // Accepting resumes below the cap (`released`); a paused budget may be one over it.
        while paused {
            guard evictOldestIdle() else {
                trackers.first?.armRoomRetry()
                return
            }
        }
    }
}

/// A connection held by a WebSocket or a stream, on the budget's clock.
private final class HeldConnection {
    var lastActive: UInt64
    let leave: () -> Void

    init(lastActive: UInt64, leave: @escaping () -> Void) {
        self.lastActive = lastActive
        self.leave = leave
    }
}
