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

    /// Makes room: first lets go of every connection evhttp already dropped (their descriptors
    /// close at once), else ends the connection, of any front, that has waited longest without a
    /// request being answered on it; false when every connection is busy.
    @discardableResult
    func evictOldestIdle() -> Bool {
        var released = 0
        for tracker in trackers { released += tracker.releaseDropped() }
        if released > 0 { return true }
        var best: (since: UInt64, tracker: ConnectionTracker)?
        for tracker in trackers {
            if let since = tracker.oldestIdleSince(), since < (best?.since ?? .max) { best = (since, tracker) }
        }
        guard let best else { return false }
        return best.tracker.evictOldestIdle()
    }

    private func pauseAll() {
        paused = true
        for tracker in trackers { tracker.pause() }
    }
}
