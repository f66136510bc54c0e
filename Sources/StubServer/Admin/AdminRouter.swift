import StubModel
import StubdEngine

/// The admin API under `/__stubd/`: a table from method + path to one handler per resource.
/// Runs on the event loop like any request; handlers only talk to the `StubAdmin` facade, never
/// to the engine.
struct AdminRouter: Sendable {
    /// The reserved path prefix; no stub can be served under it.
    static let prefix = "/__stubd"
    let admin: StubAdmin

    private static let prefixWithSlash = prefix + "/"

    static func isAdmin(_ rawPath: String) -> Bool {
        rawPath.utf8.count >= prefix.utf8.count && (rawPath == prefix || rawPath.hasPrefix(prefixWithSlash))
    }

    /// Every endpoint, most specific first (see `AdminEndpoint.specificity`).
    static let table: [AdminEndpoint] = [
        AdminEndpoint("GET", "health") { StateAdmin(admin: $0.admin).health() },
        AdminEndpoint("GET", "routes") { RoutesAdmin(admin: $0.admin).list(session: $0.session) },
        // Route changes are read and applied on the admin's change queue, never on a serving loop.
        AdminEndpoint("POST", "routes", later: { call, answer in
            call.admin.change { answer(RoutesAdmin(admin: call.admin).add(call.request.body, session: call.session)) }
        }),
        AdminEndpoint("DELETE", "routes", later: { call, answer in
            call.admin.change { answer(RoutesAdmin(admin: call.admin).removeAll(session: call.session)) }
        }),
        AdminEndpoint("PUT", "routes/{id}", later: { call, answer in
            call.admin.change { answer(RoutesAdmin(admin: call.admin).replace(id: call.parameters[0], body: call.request.body)) }
        }),
        AdminEndpoint("DELETE", "routes/{id}", later: { call, answer in
            call.admin.change { answer(RoutesAdmin(admin: call.admin).remove(id: call.parameters[0])) }
        }),
        AdminEndpoint("GET", "requests") { RequestsAdmin(admin: $0.admin).list($0.query, session: $0.session) },
        AdminEndpoint("GET", "requests/count") { RequestsAdmin(admin: $0.admin).count($0.query, session: $0.session) },
        AdminEndpoint("DELETE", "requests") { RequestsAdmin(admin: $0.admin).clear(session: $0.session) },
        AdminEndpoint("POST", "reset") { StateAdmin(admin: $0.admin).reset(session: $0.session) },
        AdminEndpoint("GET", "scenarios") { StateAdmin(admin: $0.admin).scenarioStates(session: $0.session) },
        AdminEndpoint("PUT", "scenarios/{name}", body: ScenarioChange.self) { (call, change) throws(AdminRefusal) in
            try StateAdmin(admin: call.admin).setScenario(call.parameters[0], change, session: call.session)
        },
        AdminEndpoint("POST", "scenarios/reset") { StateAdmin(admin: $0.admin).resetScenarios(session: $0.session) },
        AdminEndpoint("POST", "recording/start", body: RecordingStart.self) { (call, start) throws(AdminRefusal) in
            try RecordingAdmin(admin: call.admin).start(start)
        },
        // Answered when the recording's files are written, from the recorder's queue.
        AdminEndpoint("POST", "recording/stop", later: { call, answer in
            RecordingAdmin(admin: call.admin).stop(answer: answer)
        }),
        AdminEndpoint("PUT", "clock", body: ClockSetting.self) { (call, setting) throws(AdminRefusal) in
            try ClockAdmin(admin: call.admin).set(setting, session: call.session)
        },
        AdminEndpoint("DELETE", "clock") { ClockAdmin(admin: $0.admin).clear(session: $0.session) },
        AdminEndpoint("PUT", "random", body: SeedSetting.self) { (call, setting) throws(AdminRefusal) in
            try ClockAdmin(admin: call.admin).seed(setting, session: call.session)
        },
        AdminEndpoint("GET", "collections") { CollectionsAdmin(admin: $0.admin).list(session: $0.session) },
        AdminEndpoint("GET", "collections/{name}") { CollectionsAdmin(admin: $0.admin).items($0.parameters[0], session: $0.session) },
        AdminEndpoint("PUT", "collections/{name}", body: CollectionItems.self) { (call, items) throws(AdminRefusal) in
            try CollectionsAdmin(admin: call.admin).replace(call.parameters[0], items, session: call.session)
        },
        AdminEndpoint("GET", "webhooks") { WebhooksAdmin(admin: $0.admin).list(session: $0.session) },
        AdminEndpoint("GET", "ui") { DashboardAdmin(admin: $0.admin).page(request: $0.request) },
        AdminEndpoint("GET", "ui/app.js") { _ in DashboardAdmin.script() },
        AdminEndpoint("POST", "ui/fixtures", body: FixtureWrite.self) { (call, write) throws(AdminRefusal) in
            try DashboardAdmin(admin: call.admin).writeFixture(write)
        },
        AdminEndpoint("GET", "events", stream: { DashboardAdmin(admin: $0.admin).events($0) }),
        AdminEndpoint("GET", "metrics") { DashboardAdmin(admin: $0.admin).metrics() },
        AdminEndpoint("DELETE", "webhooks") { WebhooksAdmin(admin: $0.admin).clear(session: $0.session) },
    ].sorted { $0.specificity > $1.specificity }

    /// `GET /__stubd/health`, … — every endpoint, in the table's order (the 404 lists them).
    static var endpoints: [String] { table.map(\.description) }

    /// What an admin call gets: a reply now, a stream, or a reply later.
    enum Outcome {
        case now(PreparedReply)
        case later(@Sendable (_ answer: @escaping @Sendable (PreparedReply) -> Void) -> Void)
        case stream(ReplyStream)
    }

    /// The dashboard's page and script: served without the admin token (a browser's navigation
    /// cannot send one), every call they make needs it.
    static func isDashboardPage(_ request: IncomingRequest) -> Bool {
        request.method == "GET" && (request.rawPath == prefix + "/ui" || request.rawPath == prefix + "/ui/app.js")
    }

    func handle(_ request: IncomingRequest, session: SessionID?) -> Outcome {
        let path = Array(PathSegments(raw: request.rawPath).segments.dropFirst())
        for endpoint in Self.table {
            guard let parameters = endpoint.match(method: request.method, path: path) else { continue }
            let call = AdminEndpoint.Call(admin: admin, request: request, session: session, parameters: parameters,
                                          query: FormCoding.decodePairs(request.rawQuery ?? ""))
            switch endpoint.handler {
            case .now(let handle): return .now(handle(call))
            case .later(let handle): return .later { answer in handle(call, answer) }
            case .stream(let open): return .stream(open(call))
            }
        }
        return .now(AdminReply.error("no admin endpoint \(request.method) \(PathSegments(raw: request.rawPath))", status: 404,
                                     problems: Self.endpoints))
    }
}
