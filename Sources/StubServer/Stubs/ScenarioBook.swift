import Dispatch
import Synchronization
import StubModel

/// Scenario states and sequence positions, per session. The only mutable state matching
/// depends on; every read-and-advance happens under one lock, so concurrent requests on any
/// number of event loops never see a half-made transition.
final class ScenarioBook: Sendable {
    private struct State {
        /// session (nil: global) → scenario → state (absent means `Started`).
        var scenarios: [SessionID?: [String: String]] = [:]
        /// session (nil: global) → route id → hits served so far.
        var hits: [SessionID?: [RouteID: Int]] = [:]
        /// Steps delivered once without being consumed, waiting for the client's re-send.
        var held: Set<HeldStep> = []
        /// session → route → when it last answered or delivered a held step (monotonic ns): a
        /// connection accepted before it existed while the client waited, so the client may
        /// treat it as an idle socket and re-send on failure (`FaultStepDelivery`).
        var answeredAt: [SessionID?: [RouteID: UInt64]] = [:]
        /// session → when any of its routes last answered, while fault steps are loaded.
        var sessionAnsweredAt: [SessionID?: UInt64] = [:]
    }

    private struct HeldStep: Hashable {
        let session: SessionID?
        let route: RouteID
    }

    private let state = Mutex(State())

    /// The current state of a scenario in a session.
    func state(of scenario: String, session: SessionID?) -> String {
        state.withLock { $0.scenarios[session]?[scenario] ?? ScenarioStep.started }
    }

    /// Moves a scenario from `required` to `new` if it is still in `required` (or in any state when
    /// `required` is nil); false means another request advanced it first.
    func advance(_ step: ScenarioStep, session: SessionID?) -> Bool {
        state.withLock { state in
            let current = state.scenarios[session]?[step.name] ?? ScenarioStep.started
            if let required = step.requiredState, required != current { return false }
            if let new = step.newState { state.scenarios[session, default: [:]][step.name] = new }
            return true
        }
    }

    /// Sets a scenario's state (admin API and embedding).
    func set(_ scenario: String, to value: String, session: SessionID?) {
        state.withLock { $0.scenarios[session, default: [:]][scenario] = value }
    }

    /// All scenario states set in a session (unset ones are `Started`).
    func states(session: SessionID?) -> [String: String] {
        state.withLock { $0.scenarios[session] ?? [:] }
    }

    /// Counts a hit on a route and returns how many came before it.
    func nextHit(route: RouteID, session: SessionID?) -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            let served = state.hits[session]?[route] ?? 0
            state.hits[session, default: [:]][route] = served + 1
            state.answeredAt[session, default: [:]][route] = now
            return served
        }
    }

    /// Notes that a route answered now (a held step, a scenario step), without counting a hit.
    func noteAnswered(route: RouteID, session: SessionID?) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.answeredAt[session, default: [:]][route] = now }
    }

    /// Notes that some route answered `session` now (kept only while fault steps are loaded).
    func noteSessionAnswered(_ session: SessionID?) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.sessionAnsweredAt[session] = now }
    }

    /// The later of when the route and when any route last answered `session` (monotonic ns),
    /// or nil when neither has.
    func answeredAt(route: RouteID, session: SessionID?) -> UInt64? {
        state.withLock { state in
            let times = [state.answeredAt[session]?[route], state.sessionAnsweredAt[session]].compactMap { $0 }
            return times.max()
        }
    }

    /// Hits served so far on a route, without counting one.
    func hitsServed(route: RouteID, session: SessionID?) -> Int {
        state.withLock { $0.hits[session]?[route] ?? 0 }
    }

    /// True the first time for a route and session: the step is delivered without being consumed
    /// and remembered; false the next time (the re-send), which consumes it and forgets the hold.
    func holdForResend(route: RouteID, session: SessionID?) -> Bool {
        state.withLock { state in
            let step = HeldStep(session: session, route: route)
            return state.held.remove(step) == nil && state.held.insert(step).inserted
        }
    }

    /// Back to `Started` and first responses: for one session, or (nil) for all.
    func reset(session: SessionID?) {
        state.withLock { state in
            if let session {
                state.scenarios[session] = nil
                state.hits[session] = nil
                state.answeredAt[session] = nil
                state.sessionAnsweredAt[session] = nil
                state.held = state.held.filter { $0.session != session }
            } else {
                state = State()
            }
        }
    }

    /// Forgets sequence positions of fixture routes (their ids are reused after a reload).
    func resetFixtureHits() {
        state.withLock { state in
            for session in state.hits.keys {
                state.hits[session] = state.hits[session]?.filter { $0.key.origin != .fixture }
            }
            state.held = state.held.filter { $0.route.origin != .fixture }
        }
    }
}
