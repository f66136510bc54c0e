import StubModel
import StubdEngine

/// Makes a sequence or scenario step that fails without a response byte (`reset`, `empty`,
/// `hang`) reach the client as authored, although clients silently re-send such requests.
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
/// 2. A browser gets the step as a head with broken framing (`ReplyPlan.faultAsBrokenFraming`:
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
struct FaultStepDelivery {
    let scenarios: ScenarioBook

    /// User-Agent prefixes of clients measured to report a failed reused connection without
    /// re-sending the request: holding a step for them would fail their next request too.
    static let reportingAgents = ["python-requests/", "node", "undici"]

    /// Whether the request comes from a browser: it sends `Sec-Fetch-Mode` (to a loopback or
    /// HTTPS origin) or, to any origin, a `Mozilla/` User-Agent (every browser's, and WebViews').
    static func isBrowser(_ request: IncomingRequest) -> Bool {
        request.header("Sec-Fetch-Mode") != nil || (request.header("User-Agent") ?? "").hasPrefix("Mozilla/")
    }

    /// Whether a client other than a browser will re-send this request if it fails before the
    /// first response byte: Java's HttpClient for a GET or HEAD on any connection; any client not
    /// known to report such failures, on a reused connection.
    static func expectsResend(_ request: IncomingRequest) -> Bool {
        if isJava(request) { return request.method == "GET" || request.method == "HEAD" }
        let agent = request.header("User-Agent") ?? ""
        guard !reportingAgents.contains(where: { agent.hasPrefix($0) }), let connection = request.connection else { return false }
        return connection.request > 1
    }

    static func isJava(_ request: IncomingRequest) -> Bool {
        (request.header("User-Agent") ?? "").hasPrefix("Java-http-client/")
    }

    /// Whether a route with steps answers a browser's request with a no-byte fault as broken
    /// framing (rule 2). Plain fault routes keep the authored failure: no step can be lost there.
    static func breaksFraming(_ route: Route, for request: IncomingRequest) -> Bool {
        route.hasSteps && isBrowser(request)
    }

    /// The fault to deliver without consuming the step (rule 3), or nil to serve as usual.
    func heldFault(_ route: Route, for request: IncomingRequest, session: SessionID?) -> Fault? {
        guard route.hasSteps, !Self.isBrowser(request) else { return nil }
        // The step first (most are not no-byte faults), then, only for one that is, the client.
        let hit = route.isSequence ? scenarios.hitsServed(route: route.id, session: session) : 0
        guard case .fault(let fault) = route.outcome(forHit: hit), fault.sendsNoResponse, Self.expectsResend(request) else { return nil }
        // Java re-sends once even on a fresh connection: held once, the re-send consumes it.
        if Self.isJava(request) { return scenarios.holdForResend(route: route.id, session: session) ? fault : nil }
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
