import StubModel
import StubdEngine

/// Makes a sequence or scenario step that fails without a response byte (`reset`, `empty`,
/// `hang`) reach the client as authored, although clients silently re-send such requests.
///
/// Measured (docs/CONFORMANCE.md): curl, URLSession, Chromium and OkHttp re-send a request once
/// when a *reused* keep-alive connection fails before the first response byte, and the re-send
/// would take the next step. Java's HttpClient re-sends a GET or HEAD that got no byte even on a
/// *fresh* connection. Python requests and Node fetch never re-send. So:
///
/// 1. A reply from a route whose own next step — the next answer of its sequence, or a route
///    of its scenario in the state it leaves — is such a fault carries `Connection: close`, so
///    the client's next request to it usually opens a fresh connection. Replies of other routes
///    keep their connections alive (an earlier rule closed every reply of the session while
///    such a step was next: a `[reset, …]` sequence turned keep-alive off for the whole folder).
/// 2. When the step meets a request the client will re-send — from Java's HttpClient (GET or
///    HEAD), or on a reused connection, or on one the client opened ahead of need (Chromium
///    retries on those as on reused ones; see `expectsResend`), from any client not known to
///    report such failures without re-sending — it is delivered without being consumed: once for Java,
///    whose re-send then consumes it; for the others every time, until the attempt on a
///    connection opened for the request consumes it (Chromium was measured going through two idle
///    sockets before connecting anew).
///
/// Closing other idle connections when a step becomes next was tried and dropped: Node's fetch
/// picks a pooled connection without noticing the server closed it, and fails the request.
/// Steps that send bytes (`truncated`, `badChunk`, `garbage`) are never re-sent and need neither.
struct FaultStepDelivery {
    let scenarios: ScenarioBook
    /// The last page load, which tells the socket a browser preconnected after it.
    let pageLoads = PageLoads()

    /// User-Agent prefixes of clients measured to report a failed reused connection without
    /// re-sending the request: holding a step for them would fail their next request too.
    static let reportingAgents = ["python-requests/", "node", "undici"]

    /// Whether the client will re-send this request if it fails before the first response byte.
    /// On a connection's first request, three signs tell a socket the client opened ahead of need
    /// (Chromium re-sends on one as on a reused connection) from one it opened for this request:
    /// it was accepted before `since`, when this route last answered or delivered a held step
    /// (the client had it while it waited: the next socket Chromium tries after a held step);
    /// its first request came more than `ConnectionUse.preconnectThreshold` after the accept;
    /// or it is the socket a browser opened when a page's answer arrived (`PageLoads`).
    /// (When any route of the session last answered was a sign too, until a page that fetched
    /// while a slow request was open was read as re-sending on the fetch's own fresh socket.)
    func expectsResend(_ request: IncomingRequest, since: UInt64?) -> Bool {
        let agent = request.header("User-Agent") ?? ""
        if Self.isJava(request) { return request.method == "GET" || request.method == "HEAD" }
        guard !Self.reportingAgents.contains(where: { agent.hasPrefix($0) }), let connection = request.connection else { return false }
        guard connection.request == 1 else { return true }
        if !connection.isFresh { return true }
        if let since, connection.acceptedAt != 0, connection.acceptedAt < since { return true }
        // Opened when a page's answer arrived, and used however soon after (by timing alone, a
        // page that fetched 49 ms after its load read the step as 200 in 1 run of 40).
        return pageLoads.isPreconnect(request)
    }

    static func isJava(_ request: IncomingRequest) -> Bool {
        (request.header("User-Agent") ?? "").hasPrefix("Java-http-client/")
    }

    /// Notes that a page load is being answered (while fault steps are loaded).
    func answering(_ request: IncomingRequest) {
        if PageLoads.isPageLoad(request) { pageLoads.note(request) }
    }

    /// The fault to deliver without consuming the step (rule 2), or nil to serve as usual.
    func heldFault(_ route: Route, for request: IncomingRequest, session: SessionID?) -> Fault? {
        guard route.contents.count > 1 || route.fixture.scenario != nil else { return nil }
        // The step first (most are not no-byte faults), then, only for one that is, the client.
        let hit = route.contents.count > 1 ? scenarios.hitsServed(route: route.id, session: session) : 0
        guard case .fault(let fault) = route.content(forHit: hit), fault.sendsNoResponse,
              expectsResend(request, since: scenarios.answeredAt(route: route.id, session: session)) else { return nil }
        // Java re-sends once even on a fresh connection: held once, the re-send consumes it.
        if Self.isJava(request) { return scenarios.holdForResend(route: route.id, session: session) ? fault : nil }
        // Any other client re-sends for as long as it has an idle socket to try (Chromium went
        // through two): held each time, and the time noted, so only a connection opened after
        // this attempt — one the client cannot retry from — consumes the step.
        scenarios.noteAnswered(route: route.id, session: session)
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
            let hit = route.contents.count > 1 ? scenarios.hitsServed(route: route.id, session: session) : 0
            if case .fault(let fault) = route.content(forHit: hit) { return fault.sendsNoResponse }
            return false
        }
    }
}
