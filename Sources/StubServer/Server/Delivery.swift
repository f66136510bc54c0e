import StubModel
import StubdEngine

/// The Delivery stage: runs once per decision, after the reply is made and before the engine
/// carries it out, and owns every adjustment of the plan for the client that will read it — a
/// byte range, CORS headers, and fault steps. Who the client is comes from the exchange's
/// `ClientProfile` (one definition). Its one engine-level choice is how a fault is sent
/// (`FaultSending`).
///
/// Fault steps: a sequence or scenario step that fails without a response byte (`reset`, `empty`,
/// `hang`) must reach the client as authored, although clients silently re-send such requests.
///
/// Measured (docs/CONFORMANCE.md): curl, URLSession, Chromium and OkHttp re-send a request once
/// when a *reused* keep-alive connection fails before the first response byte, and the re-send
/// would take the next step. Chromium also re-sends on a socket it opened ahead of need (a
/// preconnect as a page's answer arrives, a connect that lost the race to a freed socket) — which
/// no server can tell from one it opened for the request: judged by timing and accept order,
/// a page's first fetch still lost its step in 1 of 40 to 1 of 6 runs. Java's HttpClient
/// re-sends a GET or HEAD that got no byte even on a *fresh* connection. Python requests and
/// Node fetch never re-send. So:
///
/// 1. A reply from a route whose own next step — the next answer of its sequence, or a route
///    of its scenario in the state it leaves — is such a fault carries `Connection: close`, so
///    the client's next request to it usually opens a fresh connection. Replies of other routes
///    keep their connections alive.
/// 2. A browser gets the step as a head with broken framing (`FaultSending.brokenFraming`:
///    two different `Content-Length`s, an unrecoverable error for a user agent by RFC 9112 §6.3),
///    which it reports without re-sending on whatever socket it used, and the step is consumed:
///    the page's fetch fails exactly as on a reset (`TypeError`); DevTools names
///    `ERR_RESPONSE_HEADERS_MULTIPLE_CONTENT_LENGTH`.
/// 3. Any other client that will re-send — Java's HttpClient (GET or HEAD), or one on a reused
///    connection, unless known to report such failures without re-sending — gets the fault
///    without the step being consumed: once for Java, whose re-send then consumes it; for the
///    others every time, until an attempt on a connection's first request consumes it (these
///    clients open no socket ahead of need).
///
/// Closing other idle connections when a step becomes next was tried and dropped: Node's fetch
/// picks a pooled connection without noticing the server closed it, and fails the request.
/// Steps that send bytes (`truncated`, `badChunk`, `garbage`) are never re-sent and need neither.
struct Delivery {
    let scenarios: ScenarioBook
    let store: StubStore
    let cors: CORSPolicy

    /// Adjusts `decision` for the client of `exchange`, in place. Admin answers and preflights do
    /// not come here: their stage answers for itself.
    @inline(__always)
    func deliver(_ decision: inout Decision, for exchange: Exchange) {
        // The common answer — no fault step in any table, no range, no CORS, not a no-byte fault —
        // goes as decided, untouched.
        guard store.hasFaultSteps || cors.enabled || exchange.request.sentRange || decision.sendsNoByteFault,
              case .reply(var plan) = decision else { return }
        let request = exchange.request
        if case .route(let route) = exchange.resolution { placeFaultSteps(&plan, of: route, for: exchange) }
        defer { decision = .reply(plan) }
        // Only a byte range or CORS changes the plan further.
        guard request.sentRange || cors.enabled else { return }
        // A miss refused forwarding is answered without CORS: the page may not read why.
        if case .notForwarded = exchange.resolution { return }
        if request.sentRange, case .route = exchange.resolution, let ranged = ByteRanges.apply(to: plan, request: request) { plan = ranged }
        if cors.enabled {
            switch plan.content {
            case .response(let prepared): plan.extraHeaders = cors.headers(for: request, exposing: prepared)
            // A fault that sends a head carries CORS too, so the page's browser names the fault.
            case .fault(let fault, _) where fault.sendsBytes: plan.extraHeaders = cors.headers(for: request, exposing: nil)
            case .script(let script): plan.extraHeaders = cors.headers(for: request, exposingHeadersOf: script.headers)
            case .fault, .stream, .upgrade: break
            }
        }
    }

    /// Rules 1 and 2 for a route's answer: a no-byte fault is noted (a re-send of it is known) and
    /// goes to a browser as broken framing when the route has steps; a response before such a
    /// step closes its connection.
    private func placeFaultSteps(_ plan: inout ReplyPlan, of route: Route, for exchange: Exchange) {
        switch plan.content {
        case .fault(let fault, _) where fault.sendsNoResponse:
            let client = exchange.client
            if route.hasSteps, client.isBrowser {
                // A browser re-sends after a no-byte failure on any socket it had idle; broken
                // framing it never re-sends.
                plan.content = .fault(fault, as: .brokenFraming)
            } else if client.isBrowser || client.resendsAfterNoByteFailure {
                // Noted only for a client that will re-send it: an app's own retry (requests,
                // Node, a new curl process) is never marked a re-send.
                scenarios.noteNoByteFault(route: route.id, session: exchange.session, signature: exchange.resendSignature)
            }
        case .response where store.hasFaultSteps:
            plan.closeConnection = faultStepFollows(route, in: store.snapshot, session: exchange.session)
        default:
            break
        }
    }

    /// The fault to deliver without consuming the step (rule 3), or nil to serve as usual.
    func heldFault(_ route: Route, for exchange: Exchange) -> Fault? {
        guard route.hasSteps else { return nil }
        let session = exchange.session
        // The step first (most are not no-byte faults), then, only for one that is, the client.
        let hit = route.isSequence ? scenarios.hitsServed(route: route.id, session: session) : 0
        guard case .fault(let fault) = route.outcome(forHit: hit), fault.sendsNoResponse else { return nil }
        let client = exchange.client
        guard !client.isBrowser, client.resendsAfterNoByteFailure else { return nil }
        // Java re-sends once even on a fresh connection: held once, the re-send consumes it.
        if client.family == .javaHTTPClient { return scenarios.holdForResend(route: route.id, session: session) ? fault : nil }
        // Any other client re-sends from reused connections until it opens one for the request.
        return fault
    }

    /// Whether, after `answered` has answered, a step with no response byte is next among its
    /// own steps (rule 1): the next answer of its sequence, or a route of its scenario whose
    /// required state the scenario is now in.
    func faultStepFollows(_ answered: Route, in snapshot: StubSnapshot, session: SessionID?) -> Bool {
        guard snapshot.hasFaultSteps else { return false }
        let scenario = answered.fixture.scenario?.name
        return snapshot.faultSteps(for: session).contains { route in
            guard route.id == answered.id || (scenario != nil && route.fixture.scenario?.name == scenario) else { return false }
            if let step = route.fixture.scenario, let required = step.requiredState,
               scenarios.state(of: step.name, session: session) != required {
                return false
            }
            let hit = route.isSequence ? scenarios.hitsServed(route: route.id, session: session) : 0
            return route.outcome(forHit: hit).sendsNoResponse
        }
    }
}
