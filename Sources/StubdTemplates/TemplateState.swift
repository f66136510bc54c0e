public import StubModel
public import StubdState
public import Foundation
import Synchronization

/// What templates keep between requests, per session like everything else a test changes: a
/// fixed clock (`PUT /__stubd/clock`), so `{{now}}` gives the same date on every run of a test,
/// `{{counter}}` per route, seeds and saved values. `SessionStore` owns it and resets it with the
/// session; every entry is charged to the `StateBudget` in bytes, so nothing here grows past its
/// bounds and nothing is dropped to make room.
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
        /// Bytes charged to the budget, per session.
        var bytes: [SessionID?: Int] = [:]

        /// Charges `delta` bytes for `session`, all or nothing.
        mutating func charge(_ delta: Int, session: SessionID?, budget: StateBudget) throws(StateBudget.Refusal) {
            try budget.charge(delta, session: session)
            bytes[session, default: 0] += delta
        }
    }

    private let state = Mutex(State())
    /// Where every entry is charged.
    package let budget: StateBudget
    /// The most bytes one templated answer may reach (`--template-output-limit`).
    package let outputLimit: Int

    /// The default for `outputLimit`: 32 MiB, the request body limit.
    public static let defaultOutputLimit = 32 << 20

    /// How fast streams play: every pause between events divided by this (`--replay-speed`;
    /// `.infinity`: at once). A per-request rendering setting like `outputLimit`.
    package let streamSpeed: Double

    /// State charged to `budget`; templated answers bounded by `outputLimit` bytes; streams at
    /// `streamSpeed`.
    public init(budget: StateBudget = StateBudget(), outputLimit: Int = TemplateState.defaultOutputLimit, streamSpeed: Double = 1) {
        self.streamSpeed = streamSpeed
        self.budget = budget
        self.outputLimit = outputLimit
    }

    /// What one entry keyed by `session` costs besides its own text.
    private static func entryCost(_ session: SessionID?) -> Int {
        StateBudget.entryOverhead + (session?.rawValue.utf8.count ?? 0)
    }

    /// The time `{{now}}` uses for `session`: its fixed clock, else the global one, else now.
    public func now(session: SessionID?) -> Date {
        state.withLock { state in
            if let session, let fixed = state.clocks[session] { return fixed }
            return state.clocks[nil] ?? Date()
        }
    }

    /// Fixes the clock for one session, or (nil) for requests without one; nil date: real time.
    public func setClock(_ date: Date?, session: SessionID?) throws(StateBudget.Refusal) {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) in
            let delta = (date == nil ? 0 : Self.entryCost(session)) - (state.clocks[session] == nil ? 0 : Self.entryCost(session))
            try state.charge(delta, session: session, budget: budget)
            state.clocks[session] = date
        }
    }

    /// Seeds the random values (`uuid`, `randomValue`) of one session, or (nil) of requests
    /// without one: the same requests in the same order then get the same values. nil seed:
    /// unpredictable again.
    public func setSeed(_ seed: UInt64?, session: SessionID?) throws(StateBudget.Refusal) {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) in
            let delta = (seed == nil ? 0 : Self.entryCost(session)) - (state.random[session] == nil ? 0 : Self.entryCost(session))
            try state.charge(delta, session: session, budget: budget)
            state.random[session] = seed
        }
    }

    /// A random 64-bit value: the session's seeded sequence when it has one, else the system's.
    package func random(session: SessionID?) -> UInt64 {
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

    /// Keeps `values` for `session` (a route's `"save"`): all of them, or — past a bound, each
    /// value's bytes counted as UTF-8 — none, with the bound that refused them.
    package func save(_ values: [(name: String, value: String)], session: SessionID?) throws(StateBudget.Refusal) {
        for (name, value) in values { try budget.checkValue(name.utf8.count + value.utf8.count, "saved value \(name)") }
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) in
            var current = state.saved[session] ?? [:]
            var delta = 0
            for (name, value) in values {
                let cost = Self.entryCost(session) + name.utf8.count
                if let old = current[name] { delta -= cost + old.utf8.count }
                delta += cost + value.utf8.count
                current[name] = value
            }
            try state.charge(delta, session: session, budget: budget)
            state.saved[session] = current
        }
    }

    /// A value saved for `session`, or nil.
    public func saved(_ name: String, session: SessionID?) -> String? {
        state.withLock { $0.saved[session]?[name] }
    }

    /// The next value of a route's counter for a session: 1, 2, 3…
    package func nextCount(route: RouteID, session: SessionID?) throws(StateBudget.Refusal) -> Int {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) -> Int in
            let key = CounterKey(route: route, session: session)
            let current = state.counters[key]
            if current == nil { try state.charge(Self.entryCost(session), session: session, budget: budget) }
            let next = (current ?? 0) + 1
            state.counters[key] = next
            return next
        }
    }

    /// Forgets one session's clock, seed, counters and saved values, or (nil) everything, and gives
    /// their bytes back.
    public func reset(session: SessionID?) {
        state.withLock { state in
            guard let session else {
                for (owner, bytes) in state.bytes { budget.release(bytes, session: owner) }
                state = State()
                return
            }
            state.clocks[session] = nil
            state.random[session] = nil
            state.saved[session] = nil
            state.counters = state.counters.filter { $0.key.session != session }
            budget.release(state.bytes.removeValue(forKey: session) ?? 0, session: session)
        }
    }
}

extension TemplateState: SessionState {}
