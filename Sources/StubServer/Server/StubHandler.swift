import StubModel
import StubdEngine

/// Answers requests: CORS preflights, admin calls, then the stubs of the request's session
/// (scenario state and sequence position applied), else the near-miss 404; fault steps are
/// placed so client re-sends cannot skip them (`FaultStepDelivery`). Each answer is returned
/// to the engine with a draft of its `Exchange`, which the feed (journal, log line) receives
/// when the engine has carried it out; a forwarded miss and a slow admin call answer later.
final class StubHandler: EngineHandler {
    private let admin: StubAdmin
    private let router: AdminRouter
    private let cors: CORSPolicy
    private let access: AdminAccess
    private let adminCORS: CORSPolicy
    private let redactor: Redactor
    private let feed: ExchangeFeed
    private let faultSteps: FaultStepDelivery
    private let webhooks: WebhookSender
    /// How stubd knows the requests it sent itself (webhooks, forwarded misses) when they come back.
    let own: OwnTraffic

    init(admin: StubAdmin, cors: CORSPolicy, access: AdminAccess = .open, redactor: Redactor = Redactor(), feed: ExchangeFeed,
         own: OwnTraffic = OwnTraffic()) {
        self.admin = admin
        self.router = AdminRouter(admin: admin)
        self.cors = cors
        self.access = access
        self.adminCORS = CORSPolicy(enabled: !access.corsOrigins.isEmpty, allowedOrigins: access.corsOrigins)
        self.redactor = redactor
        self.feed = feed
        self.faultSteps = FaultStepDelivery(scenarios: admin.scenarios)
        self.webhooks = WebhookSender(log: admin.webhooks, redactor: redactor, own: own)
        self.own = own
    }

    func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
        let observers = feed.observers
        feed.start(request, observers: observers)
        var decision = decide(request)
        if decision.unexplainedMiss {
            if let target = admin.forwarding.current {
                guard cors.allowsForwarding(request) else { return refuseForwarding(request, session: decision.session) }
                guard !own.isOwnForward(request) else { return refuseLoop(request, to: target, session: decision.session) }
                forward(request, to: target, session: decision.session, reply: reply)
                return .later
            }
            // Forwarding stopped since the lookup (a recording ended): the miss is explained after all.
            decision = decide(request)
            decision.unexplainedMiss = false
        }
        if let later = decision.later {
            answerLater(request, decision: decision, work: later, reply: reply)
            return .later
        }
        if !decision.webhooks.isEmpty { webhooks.send(decision.webhooks, via: reply, after: decision.plan.delay ?? 0) }
        let draft = ExchangeDraft.ifObserved(request: request, session: decision.session, resolution: decision.resolution,
                                             plan: decision.plan, feed: feed, observers: observers)
        return .answer(decision.plan, listener: draft)
    }

    /// A miss goes to the upstream; its answer (or a 502) goes back to the client from the loop
    /// that received the request, which never waits for the upstream (a large body is relayed
    /// as it arrives), and to the recorder.
    private func forward(_ request: IncomingRequest, to target: Forwarding.Target, session: SessionID?, reply: ReplyHandle) {
        let feed = self.feed, cors = self.cors, proxy = target.upstream
        var upstream = proxy.forward(request)
        upstream.headers.append(NameValue("Via", own.via))
        // A recorder must read what it stores: ask only for codings it can undo.
        if target.recorder != nil { upstream.headers = ProxyUpstream.decodableAcceptEncoding(upstream.headers) }
        upstream.relay = UpstreamRelay(above: ProxyUpstream.relayAbove, keepLimit: ProxyUpstream.recordLimit) { status, headers in
            let head = PreparedReply(status: status, headers: ProxyUpstream.clientHeaders(headers), body: [])
            return head.headers + (cors.enabled ? cors.headers(for: request, exposing: head) : [])
        }
        reply.fetch(upstream) { response in
            let prepared = proxy.reply(for: response, head: request.method == "HEAD")
            var plan = ReplyPlan(answer: .reply(prepared), headOnly: request.method == "HEAD")
            if case .relayed = response { plan.alreadySent = true }
            if cors.enabled { plan.extraHeaders = cors.headers(for: request, exposing: prepared) }
            let draft = ExchangeDraft.ifObserved(request: request, session: session, resolution: .proxied(upstream: proxy.description),
                                plan: plan, feed: feed)
            reply.complete(plan, listener: draft)
            target.recorder?.record(request, response)
        }
    }

    /// An admin call whose handler answers later, from any thread: the reply handle is completed
    /// then (through the loop's mailbox), and the loop serves other requests meanwhile.
    private func answerLater(_ request: IncomingRequest, decision: Decision, work: @Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void,
                             reply: ReplyHandle) {
        let feed = self.feed, cors = adminCORS, headOnly = decision.plan.headOnly, session = decision.session
        work { prepared in
            let plan = ReplyPlan(answer: .reply(prepared), headOnly: headOnly, extraHeaders: cors.headers(for: request, exposing: prepared))
            let draft = ExchangeDraft.ifObserved(request: request, session: session, resolution: .admin, plan: plan, feed: feed)
            reply.complete(plan, listener: draft)
        }
    }

    /// A miss from a page stubd may not forward for (`CORSPolicy.allowsForwarding`): 403, not
    /// sent upstream, not recorded, no CORS headers.
    private func refuseForwarding(_ request: IncomingRequest, session: SessionID?) -> HandlerDecision {
        let origin = request.header("Origin") ?? ""
        let refusal = AdminReply.error("no stub matched, and a page at \(origin) may not use the upstream through stubd", status: 403,
                                       problems: ["allow this page with --cors-origin \(origin) (pages served from localhost are allowed)"])
        let plan = ReplyPlan(answer: .reply(refusal), headOnly: request.method == "HEAD")
        let draft = ExchangeDraft.ifObserved(request: request, session: session, resolution: .miss(closest: "not forwarded: page origin \(origin) not allowed"),
                                             plan: plan, feed: feed)
        return .answer(plan, listener: draft)
    }

    /// A miss this server forwarded that came back to it (the upstream is stubd itself, or leads
    /// back to it): 508, not forwarded again.
    private func refuseLoop(_ request: IncomingRequest, to target: Forwarding.Target, session: SessionID?) -> HandlerDecision {
        let refusal = AdminReply.error("this miss was forwarded by this stubd and came back to it: the upstream \(target.upstream) leads to stubd itself",
                                       status: 508, problems: ["give --proxy-unmatched (or the recording's upstream) the real server's URL"])
        let plan = ReplyPlan(answer: .reply(refusal), headOnly: request.method == "HEAD")
        let draft = ExchangeDraft.ifObserved(request: request, session: session, resolution: .miss(closest: "not forwarded: a forwarding loop"),
                                             plan: plan, feed: feed)
        return .answer(plan, listener: draft)
    }

    /// The resolution of a miss looked up for forwarding (never shown: the exchange is journaled
    /// as proxied, or as refused).
    private static let forwardedMiss = "(to be forwarded)"

    /// What to answer, and why: the whole decision without a socket (tests call it directly).
    struct Decision {
        var plan: ReplyPlan
        var resolution: Exchange.Resolution
        var session: SessionID?
        /// Requests to send once the answer has left (the route's `"webhooks"`).
        var webhooks: [WebhookDelivery] = []
        /// A miss looked up without its near-miss report because it is to be forwarded; `plan`
        /// is then only a placeholder.
        var unexplainedMiss = false
        /// For an admin call that answers later: the work, which calls back with the reply from
        /// any thread; `plan` is then only a placeholder.
        var later: (@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)?
    }

    func decide(_ request: IncomingRequest) -> Decision {
        decideAnswer(request)
    }

    private func decideAnswer(_ request: IncomingRequest) -> Decision {
        let headOnly = request.method == "HEAD"
        let session = SessionID(request.header(SessionID.header))
        if AdminRouter.isAdmin(request.rawPath) {
            return decideAdmin(request, session: session, headOnly: headOnly)
        }
        if let preflight = cors.preflight(request) {
            let plan = ReplyPlan(answer: .reply(preflight.reply), extraHeaders: preflight.headers)
            return Decision(plan: plan, resolution: .preflight, session: session)
        }
        var (plan, resolution, webhooks) = route(request, session: session, headOnly: headOnly)
        if case .miss(let closest) = resolution, closest == Self.forwardedMiss {
            return Decision(plan: plan, resolution: resolution, session: session, unexplainedMiss: true)
        }
        if cors.enabled {
            switch plan.answer {
            case .reply(let prepared): plan.extraHeaders = cors.headers(for: request, exposing: prepared)
            // A fault that sends a head carries CORS too, so the page's browser names the fault.
            case .fault(let fault) where fault.sendsBytes: plan.extraHeaders = cors.headers(for: request, exposing: nil)
            case .fault, .stream: break
            }
        }
        return Decision(plan: plan, resolution: resolution, session: session, webhooks: webhooks)
    }

    /// The admin API, for its owner only (`AdminAccess`); CORS only for `--admin-cors-origin`s.
    private func decideAdmin(_ request: IncomingRequest, session: SessionID?, headOnly: Bool) -> Decision {
        if let preflight = adminCORS.preflight(request) {
            let plan = ReplyPlan(answer: .reply(preflight.reply), extraHeaders: preflight.headers)
            return Decision(plan: plan, resolution: .preflight, session: session)
        }
        let refusal = own.isOwn(request) ? Self.ownTrafficRefusal
            : AdminRouter.isDashboardPage(request) ? access.pageRefusal(for: request)
            : access.refusal(for: request, uiKey: admin.dashboard.uiKey)
        // A session a test names in an admin call is its own: traffic cannot crowd it out.
        if refusal == nil { admin.budget.pin(session) }
        let answer: AdminRouter.Answer = refusal.map { .now($0) } ?? router.handle(request, session: session)
        switch answer {
        case .now(let reply):
            let plan = ReplyPlan(answer: .reply(reply), headOnly: headOnly, extraHeaders: adminCORS.headers(for: request, exposing: reply))
            return Decision(plan: plan, resolution: .admin, session: session)
        case .stream(let stream):
            let plan = ReplyPlan(answer: .stream(stream), headOnly: headOnly,
                                 extraHeaders: adminCORS.headers(for: request, exposing: PreparedReply(status: stream.status, headers: stream.headers, body: [])))
            return Decision(plan: plan, resolution: .admin, session: session)
        case .later(let work):
            // The plan is made when the answer comes (`handle` completes the reply then).
            let placeholder = ReplyPlan(answer: .reply(PreparedReply(status: 500, headers: [], body: [])), headOnly: headOnly)
            return Decision(plan: placeholder, resolution: .admin, session: session, later: work)
        }
    }

    /// The admin API's answer to a request stubd sent itself (a webhook, a forwarded miss),
    /// however it was addressed.
    private static let ownTrafficRefusal = AdminReply.error("a request stubd sent itself (a webhook or a forwarded miss) may not use the admin API",
                                                            status: 403, problems: ["point the webhook or the upstream at a stub route, not at \(AdminRouter.prefix)/"])

    /// Stub lookup. A scenario step is taken with compare-and-advance: if another request moved
    /// the scenario between lookup and advance, the lookup runs again on the new state.
    private func route(_ request: IncomingRequest, session: SessionID?, headOnly: Bool) -> (ReplyPlan, Exchange.Resolution, [WebhookDelivery]) {
        let snapshot = admin.store.snapshot
        let scenarios = admin.scenarios
        let accept: ((Route) -> Bool)? = !snapshot.hasScenarios ? nil : { route in
            guard let step = route.fixture.scenario, let required = step.requiredState else { return true }
            return scenarios.state(of: step.name, session: session) == required
        }
        for _ in 0..<16 {
            // The proxy answers misses first: no near-miss report is built for one it will forward.
            let forwarding = admin.forwarding.isForwarding
            switch snapshot.lookup(request, session: session, accept: accept, redactor: redactor, explainMisses: !forwarding) {
            case .hit(let route):
                // While fault steps are loaded, when the session was last answered tells a socket
                // opened for a request from one that sat idle meanwhile (`FaultStepDelivery`).
                defer { if snapshot.hasFaultSteps { scenarios.noteSessionAnswered(session) } }
                if let fault = faultSteps.heldFault(route, for: request, session: session) {
                    route.hitCounter.wrappingIncrement(ordering: .relaxed)
                    let plan = ReplyPlan(answer: .fault(fault), delay: route.delayForRequest)
                    return (plan, .route(id: route.id, name: route.name), [])
                }
                let hit: Int
                do throws(StateBudget.Refusal) {
                    if let step = route.fixture.scenario, try !scenarios.advance(step, session: session) { continue }
                    hit = route.actions.count > 1 ? try scenarios.nextHit(route: route.id, session: session) : 0
                } catch {
                    let refusal = AdminReply.error("route \(route.name): \(error.description)", status: 507)
                    return (ReplyPlan(answer: .reply(refusal), headOnly: headOnly), .route(id: route.id, name: route.name), [])
                }
                route.hitCounter.wrappingIncrement(ordering: .relaxed)
                var plan = ReplyPlan(answer: route.answer(forHit: hit, request: request, session: session, state: admin.templates, collections: admin.collections,
                                                         source: admin), delay: route.delayForRequest, headOnly: headOnly,
                                     dribble: route.fixture.dribble)
                // The next step of this route's sequence or scenario fails without a byte: close
                // this connection, so the client's next request to it comes on a fresh one.
                if case .reply = plan.answer, snapshot.hasFaultSteps {
                    plan.closeConnection = faultSteps.faultStepFollows(route, in: snapshot, session: session)
                }
                let webhooks = route.webhooks.isEmpty ? []
                    : WebhookDelivery.render(route, request: request, session: session, state: admin.templates, collections: admin, own: own)
                return (plan, .route(id: route.id, name: route.name), webhooks)
            case .miss(let nearMisses):
                if forwarding {
                    // Sent only if forwarding changes twice while this request is looked up.
                    let retry = AdminReply.error("the upstream for misses changed while this request was looked up; send it again", status: 503)
                    let placeholder = ReplyPlan(answer: .reply(retry), headOnly: headOnly)
                    return (placeholder, .miss(closest: Self.forwardedMiss), [])
                }
                let plan = ReplyPlan(answer: .reply(MissReport.reply(for: request, nearMisses: nearMisses, redactor: redactor)), headOnly: headOnly)
                return (plan, .miss(closest: MissReport.logSummary(nearMisses)), [])
            }
        }
        let reply = AdminReply.error("scenario state kept changing during lookup; retry the request", status: 503)
        return (ReplyPlan(answer: .reply(reply), headOnly: headOnly), .miss(closest: "scenario state kept changing"), [])
    }
}
