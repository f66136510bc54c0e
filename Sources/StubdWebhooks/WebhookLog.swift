public import Foundation
public import StubModel
import StubdState
import Synchronization

/// Webhooks sent and what became of them: the last `capacity` deliveries (`GET /__stubd/webhooks`)
/// and one log line each. Also the bound on webhooks under way: beyond `maxInFlight`, a new one
/// is dropped and logged rather than held, so a flood of requests cannot grow memory.
public final class WebhookLog: Sendable {
    /// One delivery: where it went and how it ended.
    public struct Entry: Sendable {
        /// Increasing number, unique per server.
        public let sequence: Int
        /// When it ended (answered, failed for good, or dropped).
        public let time: Date
        /// The route whose answer sent it.
        public let route: String
        /// The session of the request that caused it.
        public let session: SessionID?
        /// The method.
        public let method: String
        /// The URL, its query redacted as the journal's is.
        public let url: String
        /// Attempts made.
        public let attempts: Int
        /// The last answer's status, if one came.
        public let status: Int?
        /// Why it failed, if it did.
        public let error: String?
    }

    private struct State {
        var entries: [Entry] = []
        var sequence = 0
        var inFlight = 0
    }

    /// Deliveries kept.
    public let capacity: Int
    /// Webhooks waiting or under way at once, across the server.
    public let maxInFlight: Int
    private let state = Mutex(State())
    private let log: @Sendable (String) -> Void
    /// Signalled at every ended delivery, for `waitForDeliveries`.
    private let delivered = NSCondition()

    /// A log keeping `capacity` deliveries; `log` gets one line per delivery.
    public init(capacity: Int = 500, maxInFlight: Int = 1000, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.capacity = max(0, capacity)
        self.maxInFlight = max(1, maxInFlight)
        self.log = log
    }

    /// Takes a slot for a new webhook; false when `maxInFlight` are under way.
    func begin() -> Bool {
        state.withLock { state in
            guard state.inFlight < maxInFlight else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// Records how a delivery ended; `slotHeld` gives back the slot `begin()` took.
    func ended(_ delivery: WebhookDelivery, method: String, url: String, attempts: Int, status: Int?, error: String?, slotHeld: Bool) {
        let line = state.withLock { state -> String in
            if slotHeld { state.inFlight -= 1 }
            state.sequence += 1
            let entry = Entry(sequence: state.sequence, time: Date(), route: delivery.routeName, session: delivery.session,
                              method: method, url: url, attempts: attempts, status: status, error: error)
            if capacity > 0 {
                if state.entries.count == capacity { state.entries.removeFirst() }
                state.entries.append(entry)
            }
            let outcome = status.map { "→ \($0)" } ?? "failed: \(error ?? "unknown")"
            return "webhook \(method) \(url) \(outcome) (route \(delivery.routeName), \(attempts) attempt\(attempts == 1 ? "" : "s"))"
        }
        log(line)
        delivered.lock()
        delivered.broadcast()
        delivered.unlock()
    }

    /// Waits until `count` deliveries have ended since the server started (answered, failed for
    /// good, or dropped), or `seconds` pass; true when they have. For a test that checks what a
    /// route's webhooks did: it wakes on the delivery itself, never polls.
    public func waitForDeliveries(_ count: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        delivered.lock()
        defer { delivered.unlock() }
        // Every ended delivery is numbered (`sequence`), so the count is the last number.
        while state.withLock({ $0.sequence }) < count {
            if !delivered.wait(until: deadline) { return state.withLock { $0.sequence } >= count }
        }
        return true
    }

    /// The deliveries kept, oldest first; only `session`'s when given.
    public func entries(session: SessionID?) -> [Entry] {
        state.withLock { state in state.entries.filter { session == nil || $0.session == session } }
    }

    /// Forgets the deliveries of `session` (nil: all).
    public func clear(session: SessionID?) {
        state.withLock { state in state.entries.removeAll { session == nil || $0.session == session } }
    }
}

extension WebhookLog: SessionState {
    /// A session reset forgets the webhooks it sent.
    package func reset(session: SessionID?) { clear(session: session) }
}
