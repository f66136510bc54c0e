import StubModel
import StubdEngine
import StubdWebSockets
import StubdState
import StubdTemplates
import Atomics

/// The pipeline's lookup stage: the stubs of the request's session, scenario state and sequence
/// position applied — the route's answer, with its step taken — else the miss: the near-miss 404,
/// or, when misses are forwarded, the upstream (`MissForwarder` decides whether this one may go).
struct LookupStage {
    let admin: SessionStore
    let redactor: Redactor
    let forwarder: MissForwarder

    /// The answer to `exchange`'s request from the stubs, or its miss. A scenario step is taken
    /// with compare-and-advance: if another request moved the scenario between lookup and
    /// advance, the lookup runs again on the new state.
    @inline(__always)
    func decide(_ exchange: Exchange) -> Decision {
        decide(exchange, headOnly: exchange.request.method == "HEAD")
    }

    /// The same, for a request whose answer has a body whatever its method (a batch's operation).
    @inline(__always)
    func decide(_ exchange: Exchange, headOnly: Bool) -> Decision {
        let request = exchange.request, session = exchange.session
        let snapshot = admin.store.snapshot
        let scenarios = admin.scenarios
        let accept: ((Route) -> Bool)? = !snapshot.hasScenarios ? nil : { route in
            guard let step = route.fixture.scenario, let required = step.requiredState else { return true }
            return scenarios.state(of: step.name, session: session) == required
        }
        for _ in 0..<16 {
            // The proxy answers misses first: no near-miss report is built for one it will forward.
            let target = admin.forwarding.isForwarding ? admin.forwarding.current(for: session) : nil
            switch snapshot.lookup(request, session: session, accept: accept, redactor: redactor, explainMisses: target == nil) {
            case .hit(let route):
                if let answer = answer(exchange, from: route, headOnly: headOnly) { return answer }
            case .miss(let nearMisses):
                if target != nil {
                    if let target = admin.forwarding.current(for: session) { return forwarder.decide(exchange, to: target, headOnly: headOnly) }
                    // Forwarding stopped since the lookup (a recording ended): look up again, explaining.
                    continue
                }
                exchange.resolve(.miss(closest: MissReport.logSummary(nearMisses)))
                return .reply(ReplyPlan(content: .response(MissReport.reply(for: request, nearMisses: nearMisses, redactor: redactor)),
                                        headOnly: headOnly))
            }
        }
        exchange.resolve(.miss(closest: "scenario state kept changing"))
        let reply = JSONReply.error("scenario state kept changing during lookup; retry the request", status: 503)
        return .reply(ReplyPlan(content: .response(reply), headOnly: headOnly))
    }

    /// The answer of `route`, its step taken — or nil when another request moved its scenario
    /// first (the lookup runs again).
    @inline(__always)
    private func answer(_ exchange: Exchange, from route: Route, headOnly: Bool) -> Decision? {
        let request = exchange.request, session = exchange.session, scenarios = admin.scenarios
        exchange.resolve(.route(route))
        if scenarios.isResend(route: route.id, session: session, signature: { exchange.resendSignature }) { exchange.markResend() }
        let hit: Int
        // A HEAD that a GET route answers reads the route's step without taking it.
        let peeks = headOnly && route.fixture.request.method != "HEAD"
        do throws(StateBudget.Refusal) {
            if !peeks, let step = route.fixture.scenario, try !scenarios.advance(step, session: session) { return nil }
            hit = !route.isSequence ? 0 : peeks ? scenarios.currentHit(route: route.id, session: session)
                                                : try scenarios.nextHit(route: route.id, session: session)
        } catch {
            let refusal = JSONReply.error("route \(route.name): \(error.description)", status: 507)
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly))
        }
        route.hitCounter.wrappingIncrement(ordering: .relaxed)
        exchange.routeAnswered()
        // Most routes answer one prepared reply: it goes without reading the step.
        if let reply = route.preparedReply, !request.sentUpgrade {
            return .reply(ReplyPlan(content: .response(reply), delay: route.delayForRequest, headOnly: headOnly, dribble: route.fixture.dribble))
        }
        let step = route.outcome(forHit: hit)
        if request.sentUpgrade || step.webSocket != nil,
           let opening = WebSocketOpening.plan(step.webSocket, context: context(of: exchange, answeredBy: route), registry: admin.webSockets,
                                               exchange: exchange, redactor: redactor, headOnly: headOnly) {
            return .reply(opening)
        }
        return .reply(ReplyPlan(content: route.reply(step, context(of: exchange, answeredBy: route), collections: admin.collections),
                                delay: route.delayForRequest, headOnly: headOnly, dribble: route.fixture.dribble))
    }

    /// What an answer kind reads to answer `exchange` from `route`.
    private func context(of exchange: Exchange, answeredBy route: Route) -> OutcomeContext {
        OutcomeContext(request: exchange.request, route: route, session: exchange.session, state: admin.templates, collections: admin)
    }
}
