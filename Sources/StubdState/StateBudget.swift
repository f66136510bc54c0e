public import StubModel
import Synchronization

/// The byte bounds of every per-session store (saved values, collections, counters, clocks and
/// seeds, scenario states and sequence positions), counted in UTF-8 bytes as they are kept:
/// per value, per session and in total. Stores charge it under their own lock (the budget takes
/// its lock last and calls nothing), and give bytes back when they forget them.
///
/// Nothing is evicted: past a bound a write is refused with the bound's name and flag, and the
/// state already kept stays. Sessions a test opened through the admin API (any admin call that
/// names the session: the test kit's) are *pinned*; sessions that only traffic created may
/// together use at most half the total, so requests from anyone — a web page included — can
/// never use up the room a test's own sessions need, nor erase them.
public final class StateBudget: Sendable {
    /// The bounds.
    public struct Limits: Sendable, Equatable {
        /// One saved value or one collection item (`--store-value-limit`).
        public var valueBytes: Int
        /// Everything one session keeps (`--store-session-limit`).
        public var sessionBytes: Int
        /// Everything every session keeps (`--store-limit`); sessions only traffic created may use half.
        public var totalBytes: Int

        /// 1 MiB per value, 16 MiB per session, 256 MiB in all.
        public init(valueBytes: Int = 1 << 20, sessionBytes: Int = 16 << 20, totalBytes: Int = 256 << 20) {
            self.valueBytes = valueBytes
            self.sessionBytes = sessionBytes
            self.totalBytes = totalBytes
        }
    }

    /// A write refused at a bound: the request gets it as a 507 (`reply`).
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Which bound, in words, with its size and the flag that raises it.
        public let description: String
    }

    private struct State {
        var used: [SessionID?: Int] = [:]
        var total = 0
        var unpinnedTotal = 0
        var pinned: Set<SessionID> = []
    }

    /// The bounds in force.
    public let limits: Limits
    private let state = Mutex(State())

    /// A budget with `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes one kept entry costs beyond its text: the dictionary slot, the key's object, counts.
    package static let entryOverhead = 64

    /// Bytes `session` keeps.
    public func used(session: SessionID?) -> Int {
        state.withLock { $0.used[session] ?? 0 }
    }

    /// Bytes every session keeps.
    public var total: Int { state.withLock { $0.total } }

    /// Marks `session` as opened by a test (an admin call named it): its writes may use the whole
    /// total. The global session (nil) is the owner's and always counts as pinned.
    package func pin(_ session: SessionID?) {
        guard let session else { return }
        state.withLock { state in
            guard state.pinned.insert(session).inserted else { return }
            state.unpinnedTotal -= state.used[session] ?? 0
        }
    }

    /// Whether an admin call has named `session` since it was last reset.
    package func isPinned(_ session: SessionID?) -> Bool {
        guard let session else { return true }
        return state.withLock { $0.pinned.contains(session) }
    }

    /// Checks one value against the per-value bound; `what` names it (`saved value token`).
    package func checkValue(_ bytes: Int, _ what: String) throws(Refusal) {
        guard bytes > limits.valueBytes else { return }
        throw Refusal(description: "\(what) is \(bytes) bytes, over the \(Self.size(limits.valueBytes)) a stored value may take; "
                      + "raise it with --store-value-limit")
    }

    /// Takes `delta` more bytes for `session` (negative: gives them back); throws, taking none,
    /// when a growth would pass a bound.
    package func charge(_ delta: Int, session: SessionID?) throws(Refusal) {
        guard delta != 0 else { return }
        let refusal: Refusal? = state.withLock { state in
            let pinned = session.map { state.pinned.contains($0) } ?? true
            let used = state.used[session] ?? 0
            if delta > 0 {
                if used + delta > limits.sessionBytes {
                    return Refusal(description: "this session keeps \(used) bytes and would pass its bound of \(Self.size(limits.sessionBytes)); "
                                   + "reset the session, or raise it with --store-session-limit")
                }
                if state.total + delta > limits.totalBytes {
                    return Refusal(description: "stubd keeps \(state.total) bytes of session state and would pass its bound of "
                                   + "\(Self.size(limits.totalBytes)); reset sessions, or raise it with --store-limit")
                }
                if !pinned, state.unpinnedTotal + delta > limits.totalBytes / 2 {
                    return Refusal(description: "sessions no test opened keep \(state.unpinnedTotal) bytes, half the bound of "
                                   + "\(Self.size(limits.totalBytes)); open the session through the admin API (the test kit does), "
                                   + "reset sessions, or raise it with --store-limit")
                }
            }
            let now = max(0, used + delta)
            state.used[session] = now == 0 ? nil : now
            state.total += now - used
            if !pinned { state.unpinnedTotal += now - used }
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Gives back `bytes` of `session` (never refused).
    package func release(_ bytes: Int, session: SessionID?) {
        try? charge(-bytes, session: session)
    }

    /// Forgets that a test opened `session` (its reset: the stores have given its bytes back);
    /// nil: every session's pin.
    package func unpin(session: SessionID?) {
        state.withLock { state in
            guard let session else {
                for pinned in state.pinned { state.unpinnedTotal += state.used[pinned] ?? 0 }
                state.pinned = []
                return
            }
            if state.pinned.remove(session) != nil { state.unpinnedTotal += state.used[session] ?? 0 }
        }
    }

    /// `16 MiB`, `64 KiB`, `512 bytes`.
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
