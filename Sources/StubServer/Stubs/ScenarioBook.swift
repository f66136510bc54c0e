import Dispatch
import Synchronization
import StubModel
import StubdState

/// Scenario states and sequence positions, per session. The only mutable state matching
/// depends on; every read-and-advance happens under one lock, so concurrent requests on any
/// number of event loops never see a half-made transition. Each entry is charged to the
/// `StateBudget`: a transition or a sequence step past a bound is refused (the request gets a
/// 507); a re-send note (`noteNoByteFault`) is simply not kept past one.
final class ScenarioBook: Sendable {
    private struct State {
        /// session (nil: global) → scenario → state (absent means `Started`).
        var scenarios: [SessionID?: [String: String]] = [:]
        /// session (nil: global) → route id → hits served so far.
        var hits: [SessionID?: [RouteID: Int]] = [:]
        /// session → the last request answered with a fault that sends no byte: its route, what
        /// it sent (a hash of method, target and body) and when — a client's silent re-send of it
        /// is marked in the journal.
        var noByteFaults: [SessionID?: NoByteFault] = [:]
        /// Bytes charged per session.
        var bytes: [SessionID?: Int] = [:]

        /// Charges one new entry of `text` bytes for `session`.
        mutating func charge(_ text: Int, session: SessionID?, budget: StateBudget) throws(StateBudget.Refusal) {
            let cost = StateBudget.entryOverhead + text + (session?.rawValue.utf8.count ?? 0)
            try budget.charge(cost, session: session)
            bytes[session, default: 0] += cost
        }

        /// Gives back what one entry of `text` bytes cost.
        mutating func release(_ text: Int, session: SessionID?, budget: StateBudget) {
            let cost = StateBudget.entryOverhead + text + (session?.rawValue.utf8.count ?? 0)
            budget.release(cost, session: session)
            bytes[session, default: 0] -= cost
        }
    }

    private let state = Mutex(State())
    /// Where every entry is charged.
    let budget: StateBudget

    init(budget: StateBudget = StateBudget()) {
        self.budget = budget
    }

    /// The current state of a scenario in a session.
    func state(of scenario: String, session: SessionID?) -> String {
        state.withLock { $0.scenarios[session]?[scenario] ?? ScenarioStep.started }
    }

    /// Moves a scenario from `required` to `new` if it is still in `required` (or in any state when
    /// `required` is nil); false means another request advanced it first.
    func advance(_ step: ScenarioStep, session: SessionID?) throws(StateBudget.Refusal) -> Bool {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) -> Bool in
            let current = state.scenarios[session]?[step.name]
            if let required = step.requiredState, required != current ?? ScenarioStep.started { return false }
            if let new = step.newState { try Self.put(&state, step.name, new, session: session, budget: budget) }
            return true
        }
    }

    /// Sets a scenario's state (admin API and embedding).
    func set(_ scenario: String, to value: String, session: SessionID?) throws(StateBudget.Refusal) {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) in
            try Self.put(&state, scenario, value, session: session, budget: budget)
        }
    }

    private static func put(_ state: inout State, _ scenario: String, _ value: String, session: SessionID?, budget: StateBudget) throws(StateBudget.Refusal) {
        let old = state.scenarios[session]?[scenario]
        if old == value { return }
        try state.charge(scenario.utf8.count + value.utf8.count, session: session, budget: budget)
        if let old { state.release(scenario.utf8.count + old.utf8.count, session: session, budget: budget) }
        state.scenarios[session, default: [:]][scenario] = value
    }

    /// All scenario states set in a session (unset ones are `Started`).
    func states(session: SessionID?) -> [String: String] {
        state.withLock { $0.scenarios[session] ?? [:] }
    }

    /// Counts a hit on a route and returns how many came before it.
    func nextHit(route: RouteID, session: SessionID?) throws(StateBudget.Refusal) -> Int {
        try state.withLock { (state: inout State) throws(StateBudget.Refusal) -> Int in
            let served = state.hits[session]?[route]
            if served == nil { try state.charge(0, session: session, budget: budget) }
            state.hits[session, default: [:]][route] = (served ?? 0) + 1
            return served ?? 0
        }
    }

    /// The position the route's next hit will take, without taking it: a HEAD answered by a GET
    /// route (`curl -I` while debugging) must not use up a sequence step.
    func currentHit(route: RouteID, session: SessionID?) -> Int {
        state.withLock { $0.hits[session]?[route] ?? 0 }
    }

    /// Hits served so far on a route, without counting one.
    func hitsServed(route: RouteID, session: SessionID?) -> Int {
        state.withLock { $0.hits[session]?[route] ?? 0 }
    }

    /// A request answered with a fault that sends no byte, as remembered for spotting re-sends.
    struct NoByteFault: Sendable {
        let route: RouteID
        let signature: Int
        let at: UInt64
    }

    /// How long after a no-byte fault the same request counts as the client's re-send of it
    /// (clients re-send at once: measured well under 100 ms; the second allows a loaded machine).
    /// An app's own retry of the same bytes that fast counts as a re-send too.
    static let resendWindow: UInt64 = 1_000_000_000

    /// Remembered no-byte faults, read without the lock on the hit path (0: nothing to check).
    private let noByteFaultCount = Atomic<Int>(0)

    /// `route` answered `session`'s request (`signature`) with a fault that sends no byte.
    func noteNoByteFault(route: RouteID, session: SessionID?, signature: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { state in
            if state.noByteFaults[session] == nil {
                guard (try? state.charge(0, session: session, budget: budget)) != nil else { return }
                noByteFaultCount.add(1, ordering: .relaxed)
            }
            state.noByteFaults[session] = NoByteFault(route: route, signature: signature, at: now)
        }
    }

    /// Whether a request (`signature`) that `route` is about to answer is the client's re-send of
    /// the last one that got a no-byte fault in `session`: the same route and bytes, soon after,
    /// whoever the client is. Matched, the fault is forgotten; a re-send that meets the fault again
    /// is noted again, so each of a client's re-sends (Chromium's up to three attempts, urllib3's
    /// retries) is marked, and one app call counts once.
    @inline(__always)
    func isResend(route: RouteID, session: SessionID?, signature: () -> Int) -> Bool {
        // Most servers have no fault noted: one atomic load, no call.
        noByteFaultCount.load(ordering: .relaxed) > 0 && isResendOfNotedFault(route: route, session: session, signature: signature)
    }

    private func isResendOfNotedFault(route: RouteID, session: SessionID?, signature: () -> Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let last = state.withLock({ $0.noByteFaults[session] }), last.route == route, now &- last.at < Self.resendWindow,
              last.signature == signature() else { return false }
        return state.withLock { state in
            // Another loop may have matched it first: one re-send per fault.
            guard state.noByteFaults[session]?.at == last.at else { return false }
            state.noByteFaults[session] = nil
            state.release(0, session: session, budget: budget)
            noByteFaultCount.subtract(1, ordering: .relaxed)
            return true
        }
    }

    /// Back to `Started` and first responses: for one session, or (nil) for all.
    func reset(session: SessionID?) {
        state.withLock { state in
            if let session {
                state.scenarios[session] = nil
                state.hits[session] = nil
                if state.noByteFaults.removeValue(forKey: session) != nil { noByteFaultCount.subtract(1, ordering: .relaxed) }
                budget.release(state.bytes.removeValue(forKey: session) ?? 0, session: session)
            } else {
                for (owner, bytes) in state.bytes { budget.release(bytes, session: owner) }
                noByteFaultCount.subtract(state.noByteFaults.count, ordering: .relaxed)
                state = State()
            }
        }
    }

    /// Forgets sequence positions of fixture routes (their ids are reused after a reload).
    func resetFixtureHits() {
        state.withLock { state in
            for session in state.hits.keys {
                let kept = state.hits[session]?.filter { $0.key.origin != .fixture }
                for _ in 0..<((state.hits[session]?.count ?? 0) - (kept?.count ?? 0)) { state.release(0, session: session, budget: budget) }
                state.hits[session] = kept
            }
        }
    }
}

extension ScenarioBook: SessionState {}
