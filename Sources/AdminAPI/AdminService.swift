import AdminContract
import StubModel
public import StubServer
import StubdEngine
import StubdState

/// The admin API as a running server answers it: who may call (`AdminAccess`), CORS for the
/// origins `--admin-cors-origin` lists, and the endpoint table — the standard endpoints and those
/// another module adds (the dashboard's). The serving core hands it every `/__stubd/…` request.
public struct AdminService: AdminResponder {
    private let state: SessionStore
    private let router: AdminRouter
    private let access: AdminAccess
    private let cors: CORSPolicy
    /// The dashboard page's key, which its calls carry (`X-Stubd-UI`); nil without a dashboard.
    private let pageKey: String?

    /// A service answering `state`'s admin API for the callers `access` admits, with `extra`
    /// endpoints beside the standard ones.
    public init(state: SessionStore, access: AdminAccess, extra: [AdminEndpoint] = [], pageKey: String? = nil) {
        self.state = state
        self.router = AdminRouter(state: state, endpoints: Self.standard + extra)
        self.access = access
        self.cors = CORSPolicy(enabled: !access.corsOrigins.isEmpty, allowedOrigins: access.corsOrigins)
        self.pageKey = pageKey
    }

    /// Every endpoint the router serves, most specific first (the 404 lists them).
    public var endpoints: [AdminEndpoint] { router.endpoints }

    package func decide(_ exchange: Exchange) -> Decision {
        let request = exchange.request
        let headOnly = request.method == "HEAD"
        if let preflight = cors.preflight(request) {
            exchange.resolve(.preflight)
            return .reply(ReplyPlan(content: .response(preflight.reply), extraHeaders: preflight.headers))
        }
        exchange.resolve(.admin)
        let endpoint = router.endpoint(for: request)?.endpoint
        let isPage = endpoint?.isPage ?? false
        // Who the caller is, made once for the guard and the handler.
        let client = exchange.client
        if endpoint?.isOpen != true, let refusal = isPage ? access.pageRefusal(for: request, client: client)
                                                                    : access.refusal(for: request, client: client, uiKey: pageKey) {
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly, extraHeaders: cors.headers(for: request, exposing: refusal)))
        }
        if let refusal = access.sessionRefusal(for: request, session: exchange.session) {
            return .reply(ReplyPlan(content: .response(refusal), headOnly: headOnly, extraHeaders: cors.headers(for: request, exposing: refusal)))
        }
        // A session a test names in an admin call is its own: traffic cannot crowd it out.
        state.budget.pin(exchange.session)
        switch router.handle(request, session: exchange.session, client: client) {
        case .now(let reply):
            return .reply(ReplyPlan(content: .response(reply), headOnly: headOnly, extraHeaders: cors.headers(for: request, exposing: reply)))
        case .stream(let stream):
            let head = PreparedReply(status: stream.status, headers: stream.headers, body: [])
            return .reply(ReplyPlan(content: .stream(stream), headOnly: headOnly, extraHeaders: cors.headers(for: request, exposing: head)))
        case .later(let work):
            let cors = self.cors
            return .later { answer in
                work { reply in
                    let headers = cors.headers(for: request, exposing: reply)
                    answer(headers.isEmpty ? reply : PreparedReply(status: reply.status, headers: reply.headers + headers, body: reply.body, trailers: reply.trailers))
                }
            }
        }
    }

    /// The standard endpoints, each registered against its declaration.
    static let standard: [AdminEndpoint] = [
        AdminEndpoint(AdminContract.health) { call, _ in StateAdmin(state: call.state).health() },
        AdminEndpoint(AdminContract.ready, open: true) { _, _ in Readiness() },
        AdminEndpoint(AdminContract.reset) { call, _ in StateAdmin(state: call.state).reset(session: call.session) },
        AdminEndpoint(AdminContract.routes) { call, _ in RoutesAdmin(state: call.state).list(session: call.session) },
        // Route changes are read and applied on the state's change queue, never on a serving loop.
        AdminEndpoint(AdminContract.addRoutes, later: { call, document, answer in
            call.state.change { answer(Result { () throws(AdminRefusal) in try RoutesAdmin(state: call.state).add(document, session: call.session) }) }
        }),
        AdminEndpoint(AdminContract.removeRoutes, later: { call, _, answer in
            call.state.change { answer(.success(RoutesAdmin(state: call.state).removeAll(session: call.session))) }
        }),
        AdminEndpoint(AdminContract.replaceRoute, later: { call, document, answer in
            call.state.change { answer(Result { () throws(AdminRefusal) in try RoutesAdmin(state: call.state).replace(id: call.parameters[0], with: document) }) }
        }),
        AdminEndpoint(AdminContract.removeRoute, later: { call, _, answer in
            call.state.change { answer(Result { () throws(AdminRefusal) in try RoutesAdmin(state: call.state).remove(id: call.parameters[0]) }) }
        }),
        AdminEndpoint(AdminContract.disableRoute, later: { call, _, answer in
            call.state.change { answer(Result { () throws(AdminRefusal) in
                try RoutesAdmin(state: call.state).switchRoute(id: call.parameters[0], off: true, session: call.session) }) }
        }),
        AdminEndpoint(AdminContract.enableRoute, later: { call, _, answer in
            call.state.change { answer(Result { () throws(AdminRefusal) in
                try RoutesAdmin(state: call.state).switchRoute(id: call.parameters[0], off: false, session: call.session) }) }
        }),
        AdminEndpoint(AdminContract.requests) { call, _ throws(AdminRefusal) in try RequestsAdmin(state: call.state).list(call.query, session: call.session) },
        AdminEndpoint(AdminContract.countRequests) { call, _ throws(AdminRefusal) in try RequestsAdmin(state: call.state).count(call.query, session: call.session) },
        AdminEndpoint(AdminContract.requestSnapshot) { call, _ throws(AdminRefusal) in
            try RequestSnapshotText(RequestSnapshot.text(RequestsAdmin(state: call.state).list(call.query, session: call.session).requests))
        },
        AdminEndpoint(AdminContract.clearRequests) { call, _ in RequestsAdmin(state: call.state).clear(session: call.session) },
        AdminEndpoint(AdminContract.scenarios) { call, _ in StateAdmin(state: call.state).scenarioStates(session: call.session) },
        AdminEndpoint(AdminContract.setScenario) { call, change throws(AdminRefusal) in
            try StateAdmin(state: call.state).setScenario(call.parameters[0], change, session: call.session)
        },
        AdminEndpoint(AdminContract.resetScenarios) { call, _ in StateAdmin(state: call.state).resetScenarios(session: call.session) },
        AdminEndpoint(AdminContract.startRecording) { call, start throws(AdminRefusal) in try RecordingAdmin(state: call.state).start(start, session: call.session) },
        // Answered when the recording's files are written, from the recorder's queue.
        AdminEndpoint(AdminContract.stopRecording, later: { call, _, answer in RecordingAdmin(state: call.state).stop(session: call.session, answer: answer) }),
        AdminEndpoint(AdminContract.setClock) { call, setting throws(AdminRefusal) in try ClockAdmin(state: call.state).set(setting, session: call.session) },
        AdminEndpoint(AdminContract.clearClock) { call, _ in ClockAdmin(state: call.state).clear(session: call.session) },
        AdminEndpoint(AdminContract.setSeed) { call, setting throws(AdminRefusal) in try ClockAdmin(state: call.state).seed(setting, session: call.session) },
        AdminEndpoint(AdminContract.collections) { call, _ in CollectionsAdmin(state: call.state).list(session: call.session) },
        AdminEndpoint(AdminContract.collectionItems) { call, _ throws(AdminRefusal) in
            try CollectionsAdmin(state: call.state).items(call.parameters[0], session: call.session)
        },
        AdminEndpoint(AdminContract.replaceCollection) { call, items throws(AdminRefusal) in
            try CollectionsAdmin(state: call.state).replace(call.parameters[0], items, session: call.session)
        },
        AdminEndpoint(AdminContract.webSockets) { call, _ in WebSocketsAdmin(state: call.state).list(session: call.session) },
        AdminEndpoint(AdminContract.sendWebSocket) { call, push in WebSocketsAdmin(state: call.state).send(push, session: call.session) },
        AdminEndpoint(AdminContract.closeWebSockets) { call, request in WebSocketsAdmin(state: call.state).close(request, session: call.session) },
    ]
}
