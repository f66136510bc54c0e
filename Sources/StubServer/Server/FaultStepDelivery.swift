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
///    HEAD), or on a reused connection from any client not known to report such failures
///    without re-sending — it is delivered once without being consumed; the re-send meets the
///    same fault and consumes it.
///
/// Closing other idle connections when a step becomes next was tried and dropped: Node's fetch
/// picks a pooled connection without noticing the server closed it, and fails the request.
/// Steps that send bytes (`truncated`, `badChunk`, `garbage`) are never re-sent and need neither.
struct FaultStepDelivery {
    let scenarios: ScenarioBook

    /// User-Agent prefixes of clients measured to report a failed reused connection without
    /// re-sending the request: holding a step for them would fail their next request too.
    static let reportingAgents = ["python-requests/", "node", "undici"]

    /// Whether the client will re-send this request if it fails before the first response byte.
    static func expectsResend(_ request: IncomingRequest) -> Bool {
        let agent = request.header("User-Agent") ?? ""
        if agent.hasPrefix("Java-http-client/") { return request.method == "GET" || request.method == "HEAD" }
        guard let connection = request.connection, !connection.isFresh else { return false }
        return !reportingAgents.contains { agent.hasPrefix($0) }
    }

    /// The fault to deliver without consuming the step (rule 2), or nil to serve as usual.
    func heldFault(_ route: Route, for request: IncomingRequest, session: SessionID?) -> Fault? {
        guard route.actions.count > 1 || route.fixture.scenario != nil, Self.expectsResend(request) else { return nil }
        let hit = route.actions.count > 1 ? scenarios.hitsServed(route: route.id, session: session) : 0
        guard case .fault(let fault) = route.action(forHit: hit), fault.sendsNoResponse,
              scenarios.holdForResend(route: route.id, session: session) else { return nil }
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
            let hit = route.actions.count > 1 ? scenarios.hitsServed(route: route.id, session: session) : 0
            if case .fault(let fault) = route.action(forHit: hit) { return fault.sendsNoResponse }
            return false
        }
    }
}
