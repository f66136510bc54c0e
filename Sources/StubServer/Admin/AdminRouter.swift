import StubModel

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

    static let endpoints = [
        "GET /__stubd/health", "GET /__stubd/routes", "POST /__stubd/routes", "DELETE /__stubd/routes",
        "PUT /__stubd/routes/{id}", "DELETE /__stubd/routes/{id}", "GET /__stubd/requests", "GET /__stubd/requests/count",
        "DELETE /__stubd/requests", "POST /__stubd/reset", "GET /__stubd/scenarios", "PUT /__stubd/scenarios/{name}",
        "POST /__stubd/scenarios/reset", "POST /__stubd/recording/start", "POST /__stubd/recording/stop",
        "PUT /__stubd/clock", "DELETE /__stubd/clock", "PUT /__stubd/random", "GET /__stubd/collections", "GET /__stubd/collections/{name}",
        "PUT /__stubd/collections/{name}", "GET /__stubd/webhooks", "DELETE /__stubd/webhooks",
    ]

    func handle(_ request: IncomingRequest, session: SessionID?) -> PreparedReply {
        let path = Array(PathSegments(raw: request.rawPath).segments.dropFirst())
        let query = FormCoding.decodePairs(request.rawQuery ?? "")
        let routes = RoutesAdmin(admin: admin)
        let requests = RequestsAdmin(admin: admin)
        let state = StateAdmin(admin: admin)
        switch (request.method, path.count, path.first ?? "") {
        case ("GET", 1, "health"): return state.health()
        case ("GET", 1, "routes"): return routes.list(session: session)
        case ("POST", 1, "routes"): return routes.add(request.body, session: session)
        case ("DELETE", 1, "routes"): return routes.removeAll(session: session)
        case ("PUT", 2, "routes"): return routes.replace(id: path[1], body: request.body)
        case ("DELETE", 2, "routes"): return routes.remove(id: path[1])
        case ("GET", 1, "requests"): return requests.list(query, session: session)
        case ("GET", 2, "requests") where path[1] == "count": return requests.count(query, session: session)
        case ("DELETE", 1, "requests"): return requests.clear(session: session)
        case ("POST", 1, "reset"): return state.reset(session: session)
        case ("GET", 1, "scenarios"): return state.scenarioStates(session: session)
        case ("PUT", 2, "scenarios"): return state.setScenario(path[1], body: request.body, session: session)
        case ("POST", 2, "scenarios") where path[1] == "reset": return state.resetScenarios(session: session)
        case ("POST", 2, "recording") where path[1] == "start": return RecordingAdmin(admin: admin).start(request.body)
        case ("POST", 2, "recording") where path[1] == "stop": return RecordingAdmin(admin: admin).stop()
        case ("PUT", 1, "clock"): return ClockAdmin(admin: admin).set(request.body, session: session)
        case ("GET", 1, "collections"): return CollectionsAdmin(admin: admin).list(session: session)
        case ("GET", 2, "collections"): return CollectionsAdmin(admin: admin).items(path[1], session: session)
        case ("PUT", 2, "collections"): return CollectionsAdmin(admin: admin).replace(path[1], body: request.body, session: session)
        case ("DELETE", 1, "clock"): return ClockAdmin(admin: admin).clear(session: session)
        case ("PUT", 1, "random"): return ClockAdmin(admin: admin).seed(request.body, session: session)
        case ("GET", 1, "webhooks"): return WebhooksAdmin(admin: admin).list(session: session)
        case ("DELETE", 1, "webhooks"): return WebhooksAdmin(admin: admin).clear(session: session)
        default:
            return AdminReply.error("no admin endpoint \(request.method) \(PathSegments(raw: request.rawPath))", status: 404,
                                    problems: Self.endpoints)
        }
    }
}
