import Logging
import TargetModel

/// Answers requests: admin calls, CORS preflights, then the stubs of the request's session
/// (scenario state and sequence position applied), else the near-miss 404. Writes one log line
/// per request (`GET /zen 200 zen 0.21ms`) and one journal entry per non-admin request.
final class StubResponder: RequestResponder {
    let store: StubStore
    let journal: RequestJournal
    let scenarios: ScenarioBook
    let cors: CORSPolicy
    let logger: Logger?
    private let admin: AdminRouter

    init(store: StubStore, journal: RequestJournal, scenarios: ScenarioBook, cors: CORSPolicy, logger: Logger?) {
        self.store = store
        self.journal = journal
        self.scenarios = scenarios
        self.cors = cors
        self.logger = logger
        self.admin = AdminRouter(store: store, journal: journal, scenarios: scenarios)
    }

    func respond(to request: IncomingRequest) -> ResponsePlan {
        let headOnly = request.method == "HEAD"
        let session = request.header(AdminRouter.sessionHeader)
        if let preflight = cors.preflight(request) {
            var plan = ResponsePlan(action: .reply(preflight.reply), request: request, routeLabel: "CORS")
            plan.extraHeaders = preflight.headers
            return plan
        }
        if AdminRouter.isAdmin(request.rawPath) {
            let reply = admin.handle(request, session: session)
            var plan = ResponsePlan(action: .reply(reply), headOnly: headOnly, request: request, routeLabel: "ADMIN")
            plan.extraHeaders = cors.headers(for: request, exposing: nil)
            return plan
        }
        var plan = route(request, session: session, headOnly: headOnly)
        if cors.enabled, case .reply(let reply) = plan.action {
            plan.extraHeaders = cors.headers(for: request, exposing: reply)
        }
        plan.journaled = true
        plan.session = session
        return plan
    }

    /// Stub lookup. A scenario step is taken with compare-and-advance: if another request moved
    /// the scenario between lookup and advance, the lookup runs again on the new state.
    private func route(_ request: IncomingRequest, session: String?, headOnly: Bool) -> ResponsePlan {
        let snapshot = store.snapshot
        let key = session ?? ""
        let accept: ((Route) -> Bool)? = !snapshot.hasScenarios ? nil : { [scenarios] route in
            guard let step = route.fixture.scenario, let required = step.requiredState else { return true }
            return scenarios.state(of: step.name, session: key) == required
        }
        for _ in 0..<16 {
            switch snapshot.lookup(request, session: session, accept: accept) {
            case .hit(let route):
                if let step = route.fixture.scenario, !scenarios.advance(step, session: key) { continue }
                let hit = route.actions.count > 1 ? scenarios.nextHit(route: route.id, session: key) : 0
                var plan = ResponsePlan(action: route.action(forHit: hit), delay: route.fixture.delay, headOnly: headOnly,
                                        request: request, routeLabel: route.name)
                plan.routeID = route.id
                plan.dribble = route.fixture.dribble
                return plan
            case .miss(let nearMisses):
                var plan = ResponsePlan(action: .reply(MissReport.reply(for: request, nearMisses: nearMisses)), headOnly: headOnly,
                                        request: request, routeLabel: "MISS")
                plan.nearMiss = MissReport.logSummary(nearMisses)
                return plan
            }
        }
        let reply = AdminReply.error("scenario state kept changing during lookup; retry the request", status: 503)
        return ResponsePlan(action: .reply(reply), headOnly: headOnly, request: request, routeLabel: "MISS")
    }

    func finished(_ plan: ResponsePlan, latencySeconds: Double) {
        if plan.journaled {
            journal.record(plan.request, session: plan.session, plan: plan, latency: latencySeconds)
        }
        guard let logger else { return }
        let outcome: String
        switch plan.action {
        case .reply(let reply): outcome = String(reply.status)
        case .fault(let fault): outcome = "fault:\(fault.rawValue)"
        }
        let milliseconds = (latencySeconds * 100_000).rounded() / 100
        let label = plan.nearMiss.map { "\(plan.routeLabel) \($0)" } ?? plan.routeLabel
        logger.info("\(plan.requestLine) \(outcome) \(label) \(milliseconds)ms")
    }
}
