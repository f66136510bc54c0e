import Dispatch
import AdminContract
package import StubModel
package import StubdEngine
import StubdWebSockets
import StubdState
import StubdTemplates
import Atomics

/// Answers requests, one `Exchange` each, made as the request arrives: CORS preflights, the admin
/// API, then the stubs of the request's session (scenario state and sequence position applied),
/// else the near-miss 404 — or the upstream, for a miss that is forwarded. The decision resolves
/// the exchange and records what its reply sends; the engine completes it, and the feed hands it
/// to the observers (journal, log line, metrics, webhooks, recorder). Between the reply and the
/// engine, the Delivery stage adjusts the plan for its client: ranges, CORS, fault steps.
package final class StubHandler: EngineHandler {
    private let admin: SessionStore
    /// What answers `/__stubd/…` (the admin API's service).
    private let responder: any AdminResponder
    private let cors: CORSPolicy
    private let redactor: Redactor
    private let feed: ExchangeFeed
    private let delivery: Delivery
    /// How stubd knows the requests it sent itself (webhooks, forwarded misses) when they come back.
    let own: OwnTraffic

    package init(admin: SessionStore, responder: any AdminResponder, cors: CORSPolicy, redactor: Redactor = Redactor(), feed: ExchangeFeed,
                 own: OwnTraffic = OwnTraffic()) {
        self.admin = admin
        self.responder = responder
        self.cors = cors
        self.redactor = redactor
        self.feed = feed
        self.delivery = Delivery(scenarios: admin.scenarios, cors: cors)
        self.own = own
    }

    package func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        let observers = feed.observers
        let exchange = Exchange(request: request, feed: feed, reply: reply)
        feed.start(exchange, observers: observers)
        // Large inputs (a body, or a head a template may read: a 60 KB query) and batches are decided off the loop.
        if request.body.count >= OffLoop.bytes || request.headBytes >= OffLoop.headBytes || GraphQLBatch.mayBe(request), !AdminContract.isAdmin(request.rawPath) {
            decideOffTheLoop(exchange, reply: reply)
            return .later
        }
        switch decide(exchange) {
        case .reply(let plan):
            exchange.record(plan)
            return .reply(plan, listener: exchange)
        case .forward(let target):
            forward(exchange, to: target, reply: reply)
            return .later
        case .later(let work):
            answerLater(exchange, work: work, reply: reply)
            return .later
        }
    }

    /// Where large bodies are decided: as many at once as the system gives threads.
    private static let offLoop = DispatchQueue(label: "stubd.large-bodies", qos: .userInitiated, attributes: .concurrent)

    /// Decides on `offLoop`, then completes the handle (from any thread), or goes back to the
    /// request's loop to forward it.
    private func decideOffTheLoop(_ exchange: Exchange, reply: ReplyHandle) {
        Self.offLoop.async { [self] in
            switch decide(exchange) {
            case .reply(let plan):
                exchange.record(plan)
                reply.complete(plan, listener: exchange)
            case .forward(let target):
                reply.onLoop { [self] in forward(exchange, to: target, reply: reply) }
            case .later(let work):
                answerLater(exchange, work: work, reply: reply)
            }
        }
    }

    /// A miss goes to the upstream; its answer (or a 502) goes back to the client from the loop
    /// that received the request, which never waits for the upstream (a large body is relayed
    /// as it arrives). A recording keeps the upstream's answer in the exchange for the recorder.
    private func forward(_ exchange: Exchange, to target: Forwarding.Target, reply: ReplyHandle) {
        if WebSocketForwarding.relays(exchange.request) {
            return WebSocketForwarding.forward(exchange, to: target, via: own.via, redactor: redactor, registry: admin.webSockets, reply: reply)
        }
        let request = exchange.request, cors = self.cors, proxy = target.upstream
        var upstream = proxy.forward(request)
        upstream.headers.append(NameValue("Via", own.via))
        // A recorder must read what it stores: ask only for codings it can undo.
        if target.recorder != nil { upstream.headers = ProxyUpstream.decodableAcceptEncoding(upstream.headers) }
        upstream.relay = UpstreamRelay(above: ProxyUpstream.relayAbove, keepLimit: target.recorder?.options.maxBodyBytes ?? 0) { status, headers in
            let head = PreparedReply(status: status, headers: ProxyUpstream.clientHeaders(headers), body: [])
            return head.headers + (cors.enabled ? cors.headers(for: request, exposing: head) : [])
        }
        exchange.resolve(.forwarded(upstream: proxy.description))
        reply.upstream.fetch(upstream) { response in
            let prepared = proxy.reply(for: response, head: request.method == "HEAD")
            var plan = ReplyPlan(content: .response(prepared), headOnly: request.method == "HEAD")
            if case .relayed = response { plan.alreadySent = true }
            if cors.enabled { plan.extraHeaders = cors.headers(for: request, exposing: prepared) }
            exchange.record(plan)
            if let recorder = target.recorder { exchange.recorded(by: recorder, upstream: response) }
            reply.complete(plan, listener: exchange)
        }
    }

    /// An admin call whose handler answers later, from any thread: the reply handle is completed
    /// then (through the loop's mailbox), and the loop serves other requests meanwhile.
    private func answerLater(_ exchange: Exchange, work: @Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void,
                             reply: ReplyHandle) {
        let request = exchange.request
        work { prepared in
            let plan = ReplyPlan(content: .response(prepared), headOnly: request.method == "HEAD")
            exchange.record(plan)
            reply.complete(plan, listener: exchange)
        }
    }

    /// A decision and the exchange it resolved.
    package struct Decided {
        package let decision: Decision
        package let exchange: Exchange
        /// The plan of a reply decided now.
        package var plan: ReplyPlan? { decision.plan }
        package var resolution: Exchange.Resolution { exchange.resolution }
        package var session: SessionID? { exchange.session }
        /// The work of an admin call answered later.
        package var later: (@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)? {
            if case .later(let work) = decision { return work }
            return nil
        }
    }

    /// The whole decision without a socket, for a request alone (tests): an exchange nobody
    /// observes.
    package func decide(_ request: IncomingRequest) -> Decided {
        let exchange = Exchange(request: request, feed: nil, reply: nil)
        return Decided(decision: decide(exchange), exchange: exchange)
    }

    /// What to answer `exchange`'s request, and why (the exchange's resolution).
    package func decide(_ exchange: Exchange) -> Decision {
        let request = exchange.request
        let headOnly = request.method == "HEAD"
        if AdminContract.isAdmin(request.rawPath) {
            // Whatever reached it, a request stubd sent itself never uses the admin API.
            guard !own.isOwn(request) else {
                exchange.resolve(.admin)
                return .reply(ReplyPlan(content: .response(Self.ownTrafficRefusal), headOnly: headOnly))
            }
            return responder.decide(exchange)
        }
        if let preflight = cors.preflight(request) {
            exchange.resolve(.preflight)
            return .reply(ReplyPlan(content: .response(preflight.reply), extraHeaders: preflight.headers))
        }
        var decision = route(exchange, headOnly: headOnly)
        // A GraphQL batch no route takes whole: each operation looked up as a request of its own, answered as one array.
        if case .miss = exchange.resolution, let batch = GraphQLBatch(request) {
            decision = batch.decide(exchange) { route($0, headOnly: false) }
        }
        delivery.deliver(&decision, for: exchange)
        return decision
    }

    /// The admin API's answer to a request stubd sent itself (a webhook, a forwarded miss),
    /// however it was addressed.
    private static let ownTrafficRefusal = JSONReply.error("a request stubd sent itself (a webhook or a forwarded miss) may not use the admin API",
                                                            status: 403, problems: ["point the webhook or the upstream at a stub route, not at \(AdminContract.prefix)/"])

    /// Stub lookup. A scenario step is taken with compare-and-advance: if another request moved
    /// the scenario between lookup and advance, the lookup runs again on the new state.
    private func route(_ exchange: Exchange, headOnly: Bool) -> Decision {
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
                    if let target = admin.forwarding.current(for: session) { return forwardOrRefuse(exchange, to: target, headOnly: headOnly) }
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

    /// A miss for the upstream — unless a page stubd may not forward for sent it
    /// (`CORSPolicy.allowsForwarding`: 403, not sent upstream, not recorded, no CORS headers), or
    /// it is one this server forwarded that came back to it (508: the upstream is stubd itself).
    private func forwardOrRefuse(_ exchange: Exchange, to target: Forwarding.Target, headOnly: Bool) -> Decision {
        let request = exchange.request
        let client = exchange.client
        if !cors.allowsForwarding(client) {
            let from = client.origin.map { "a page at \($0)" } ?? "a page (Sec-Fetch-Site: \(client.fetchSite ?? "?"))"
            exchange.resolve(.notForwarded(reason: "\(from) not allowed"))
            let refusal = JSONReply.error("no stub matched, and \(from) may not use the upstream through stubd", status: 403,
                                           problems: ["allow this page with --cors-origin \(client.origin ?? "ORIGIN") (pages served from localhost are allowed)"])
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly))
        }
        if own.isOwnForward(request) {
            exchange.resolve(.notForwarded(reason: "a forwarding loop"))
            let refusal = JSONReply.error("this miss was forwarded by this stubd and came back to it: the upstream \(target.upstream) leads to stubd itself",
                                           status: 508, problems: ["give --proxy-unmatched (or the recording's upstream) the real server's URL"])
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly))
        }
        return .forward(target)
    }
}
