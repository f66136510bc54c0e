import Foundation
import Synchronization

/// What templates keep between requests, per session like everything else a test changes: a
/// fixed clock (`PUT /__stubd/clock`), so `{{now}}` gives the same date on every run of a test,
/// and `{{counter}}` per route. `StubAdmin` owns it and resets it with the session.
public final class TemplateState: Sendable {
    private struct CounterKey: Hashable {
        let route: RouteID
        let session: SessionID?
    }

    private struct State {
        /// nil key: the clock of requests without a session (and the default for every session).
        var clocks: [SessionID?: Date] = [:]
        var counters: [CounterKey: Int] = [:]
        /// SplitMix64 states of seeded sessions (nil key: requests without a session).
        var random: [SessionID?: UInt64] = [:]
        /// Values routes saved (`"save"`), per session.
        var saved: [SessionID?: [String: String]] = [:]
    }

    /// Names one session may save, and the longest value kept (longer ones are cut).
    static let savedLimit = 1_000
    static let savedValueLimit = 65_536

    private let state = Mutex(State())

    /// Bounds the counters kept (a test suite's sessions come and go); past it the oldest are dropped.
    static let counterLimit = 100_000

    public init() {}

    /// The time `{{now}}` uses for `session`: its fixed clock, else the global one, else now.
    public func now(session: SessionID?) -> Date {
        state.withLock { state in
            if let session, let fixed = state.clocks[session] { return fixed }
            return state.clocks[nil] ?? Date()
        }
    }

    /// Fixes the clock for one session, or (nil) for requests without one; nil date: real time.
    public func setClock(_ date: Date?, session: SessionID?) {
        state.withLock { $0.clocks[session] = date }
    }

    /// Seeds the random values (`uuid`, `randomValue`) of one session, or (nil) of requests
    /// without one: the same requests in the same order then get the same values. nil seed:
    /// unpredictable again.
    public func setSeed(_ seed: UInt64?, session: SessionID?) {
        state.withLock { $0.random[session] = seed }
    }

    /// A random 64-bit value: the session's seeded sequence when it has one, else the system's.
    func random(session: SessionID?) -> UInt64 {
        state.withLock { state -> UInt64 in
            let key: SessionID?? = state.random[session] != nil ? .some(session) : (state.random[nil] != nil ? .some(nil) : .none)
            guard case .some(let owner) = key, var seed = state.random[owner] else { return UInt64.random(in: .min ... .max) }
            // SplitMix64: small, fast, and the same on every platform.
            seed &+= 0x9E37_79B9_7F4A_7C15
            state.random[owner] = seed
            var value = seed
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    /// Keeps `values` for `session` (a route's `"save"`), within the limits.
    func save(_ values: [(name: String, value: String)], session: SessionID?) {
        state.withLock { state in
            var current = state.saved[session] ?? [:]
            for (name, value) in values where current[name] != nil || current.count < Self.savedLimit {
                current[name] = String(value.prefix(Self.savedValueLimit))
            }
            state.saved[session] = current
        }
    }

    /// A value saved for `session`, or nil.
    public func saved(_ name: String, session: SessionID?) -> String? {
        state.withLock { $0.saved[session]?[name] }
    }

    /// The next value of a route's counter for a session: 1, 2, 3…
    func nextCount(route: RouteID, session: SessionID?) -> Int {
        state.withLock { state in
            if state.counters.count >= Self.counterLimit { state.counters.removeAll(keepingCapacity: true) }
            let key = CounterKey(route: route, session: session)
            let next = (state.counters[key] ?? 0) + 1
            state.counters[key] = next
            return next
        }
    }

    /// Forgets one session's clock and counters, or (nil) everything.
    public func reset(session: SessionID?) {
        state.withLock { state in
            guard let session else {
                state = State()
                return
            }
            state.clocks[session] = nil
            state.random[session] = nil
            state.saved[session] = nil
            state.counters = state.counters.filter { $0.key.session != session }
        }
    }
}
