import StubModel
import StubdEngine

/// The Delivery stage: runs once per decision, after the reply is made and before the engine
/// carries it out, and owns every adjustment of the plan for the client that will read it — a
/// byte range, CORS headers, and fault steps. Its one engine-level choice is how a fault is sent
/// (`FaultSending`); what it sends never depends on who the client is.
///
/// Fault steps: a sequence or scenario step that fails without a response byte (`reset`, `empty`,
/// `hang`) must reach the client as one failure, although every client measured silently
/// re-sends some request that got no byte — curl, URLSession, OkHttp and Chromium on a reused
/// connection, Java's HttpClient and aiohttp even on a fresh one — and the re-send would take the
/// next step. So such a step goes to every client as a response that fails before any status
/// (`FaultSending.beforeStatus`: a `502` head with two different lengths, then the close), or,
/// for a route with `"faultSteps": "inBody"`, inside the body (`.cutShort`: a `200` head that
/// promises a body the close then denies). No client re-sends a request that got response bytes,
/// and each reports these as a failure (conformance/encodings.py measures every candidate per
/// client; docs/FAULTS.md has the table). A plain fault route (no steps) is sent as authored:
/// every attempt fails alike, so a re-send changes nothing the app sees.
struct Delivery {
    let scenarios: ScenarioBook
    let cors: CORSPolicy

    /// Adjusts `decision` for the client of `exchange`, in place. Admin answers and preflights do
    /// not come here: their stage answers for itself.
    @inline(__always)
    func deliver(_ decision: inout Decision, for exchange: Exchange) {
        // The common answer — no range, no CORS, not a no-byte fault — goes as decided, untouched.
        guard cors.enabled || exchange.request.sentRange || decision.sendsNoByteFault,
              case .reply(var plan) = decision else { return }
        let request = exchange.request
        if case .route(let route) = exchange.resolution { placeFault(&plan, of: route, for: exchange) }
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
            case .fault(let fault, let sending) where fault.sendsBytes || sending.replacesNoByte(fault):
                plan.extraHeaders = cors.headers(for: request, exposing: nil)
            case .script(let script): plan.extraHeaders = cors.headers(for: request, exposingHeadersOf: script.headers)
            case .fault, .stream, .upgrade, .tunnel: break
            }
        }
    }

    /// A no-byte fault of a route with steps goes as a response, where the route places it; one of a plain route goes as
    /// authored, and is noted, so the same request right after it is journaled as its re-send —
    /// for every client alike (which ones re-send is measured, not assumed: docs/FAULTS.md).
    private func placeFault(_ plan: inout ReplyPlan, of route: Route, for exchange: Exchange) {
        guard case .fault(let fault, _) = plan.content, fault.sendsNoResponse else { return }
        if route.hasSteps {
            plan.content = .fault(fault, as: route.fixture.faultSteps == .inBody ? .cutShort : .beforeStatus)
        } else {
            scenarios.noteNoByteFault(route: route.id, session: exchange.session, signature: exchange.resendSignature)
        }
    }
}
