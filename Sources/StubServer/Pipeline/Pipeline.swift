import StubModel
import AdminContract
import StubdEngine
import StubdState

/// The stages every request passes, in this order, each in a file of its own — the arrival side's
/// seam, as `CompiledOutcome` is the answer side's. `StubHandler` only makes the exchange, runs
/// this, and carries the decision out; a new thing to do before the answer goes is a stage here,
/// never a clause in the handler (`packaging/check-imports.py` keeps the handler free of feature
/// types).
///
/// 1. `AdminStage`: `/__stubd/…` goes to the admin API (or is refused, for a request stubd sent
///    itself). Its answer goes as it is.
/// 2. `CORSPolicy.preflight`: a CORS preflight of an allowed origin is answered. It goes as it is.
/// 3. `LookupStage`: the session's stubs, scenario state and sequence position applied; else the miss —
///    the near-miss 404, or the upstream when misses are forwarded (`MissForwarder`).
/// 4. `GraphQLBatch`: a miss whose body is a batch of GraphQL operations is looked up an operation
///    at a time and answered as one array.
/// 5. `Delivery`: the plan adjusted for its client — a byte range, CORS, fault steps.
///
/// The stages are called in order from `decide` — static dispatch, nothing to look up per request.
/// The proxy's front (`StubdProxy.ProxyGate`) runs before all of them, at the engine's seam: it
/// decides tunnels and what the forward proxy passes on, and hands the rest to the handler.
struct Pipeline {
    let admin: AdminStage
    let cors: CORSPolicy
    let lookup: LookupStage
    let delivery: Delivery

    /// The stages of a server whose state is `admin` and whose admin API `responder` answers.
    init(admin: SessionStore, responder: any AdminResponder, cors: CORSPolicy, redactor: Redactor, own: OwnTraffic) {
        self.admin = AdminStage(responder: responder, own: own)
        self.cors = cors
        let forwarder = MissForwarder(cors: cors, redactor: redactor, own: own, webSockets: admin.webSockets)
        self.lookup = LookupStage(admin: admin, redactor: redactor, forwarder: forwarder)
        self.delivery = Delivery(scenarios: admin.scenarios, cors: cors)
    }

    /// What to answer `exchange`'s request, and why (the exchange's resolution).
    @inline(__always)
    func decide(_ exchange: Exchange) -> Decision {
        if let answer = admin.decide(exchange) { return answer }
        if let preflight = cors.preflight(exchange.request) {
            exchange.resolve(.preflight)
            return .reply(ReplyPlan(content: .response(preflight.reply), extraHeaders: preflight.headers))
        }
        var decision = lookup.decide(exchange)
        GraphQLBatch.answerMiss(exchange, &decision, lookup: lookup)
        delivery.deliver(&decision, for: exchange)
        return decision
    }

    /// Whether `request` is decided off the serving loop: a large body, a large head (a template
    /// may read a 60 KB query), or what may be a GraphQL batch (a lookup per operation). Admin
    /// calls never are: their handlers keep to their own queues.
    @inline(__always)
    func decidesOffTheLoop(_ request: IncomingRequest) -> Bool {
        (request.body.count >= OffLoop.bytes || request.headBytes >= OffLoop.headBytes || GraphQLBatch.mayBe(request))
            && !AdminContract.isAdmin(request.rawPath)
    }

    /// Carries out a `.forward` decision: the miss goes to its upstream, and the upstream's answer
    /// (or a 502) completes `reply`.
    func forward(_ exchange: Exchange, to target: Forwarding.Target, reply: ReplyHandle) {
        lookup.forwarder.forward(exchange, to: target, reply: reply)
    }
}
