public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import AdminContract
public import StubModel
public import TargetModel

/// Drives a stubd running in another process (on the Mac beside the Simulator, on a CI runner)
/// through its admin API. It lives in the test kit, not the server library, so that a UI-test
/// target on iOS can link it without libevent; `StubdSession` builds on it.
///
/// ```swift
/// let admin = StubdAdminClient(baseURL: URL(string: "http://127.0.0.1:8080")!, session: "login-test")
/// try await admin.add([Fixture(…)])          // this session only
/// … run the app with header X-Stubd-Session: login-test …
/// #expect(try await admin.count(RequestFilter(path: "/login")) == 1)
/// ```
public struct StubdAdminClient: Sendable {
    /// The server, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Sent as `X-Stubd-Session` on every call, scoping routes, scenarios and journal queries.
    public let session: String?
    /// Sent as `Authorization: Bearer …`: the server's `--admin-token`, needed when it listens on
    /// a non-loopback address.
    public let token: String?
    /// Seconds one call may take.
    public let timeout: TimeInterval
    /// How calls reach the server (HTTP unless a test hands in another).
    public let transport: any StubdTransport

    /// A client for the server at `baseURL`.
    public init(baseURL: URL, session: String? = nil, token: String? = nil, timeout: TimeInterval = 30,
                transport: any StubdTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.session = session
        self.token = token
        self.timeout = timeout
        self.transport = transport
    }

    /// `GET /__stubd/health`: route and journal counts, the recording under way.
    public func health() async throws -> Health {
        try await call(AdminContract.health)
    }

    /// `GET /__stubd/routes`: every route this session sees, in lookup order.
    public func routes() async throws -> [RouteEntry] {
        try await call(AdminContract.routes).routes
    }

    /// `POST /__stubd/routes`; returns the new routes' ids.
    @discardableResult
    public func add(_ fixtures: [Fixture]) async throws -> [String] {
        guard let document = try? JSONParser.parse(Array(FixtureWriter.text(for: fixtures).utf8)) else { return [] }
        return try await call(AdminContract.addRoutes, body: JSONBody(document)).added
    }

    /// Adds Swift targets as runtime routes, compiled as the server compiles them.
    @discardableResult
    public func add(targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) async throws -> [String] {
        try await add(try CompiledTargets.compile(targets, options: options).fixtures)
    }

    /// `PUT /__stubd/routes/{id}`.
    public func replace(id: String, with fixture: Fixture) async throws {
        _ = try await call(AdminContract.replaceRoute, id, body: JSONBody(FixtureWriter.route(fixture)))
    }

    /// `DELETE /__stubd/routes/{id}`.
    public func remove(id: String) async throws {
        _ = try await call(AdminContract.removeRoute, id)
    }

    /// `POST /__stubd/routes/{id}/disable` or `…/enable`: a route (a fixture's too) off or back on
    /// for this session, so a test can see what the app does when that call falls through to the
    /// next route or misses; the session's reset turns it back on.
    public func setRoute(id: String, enabled: Bool) async throws {
        _ = try await call(enabled ? AdminContract.enableRoute : AdminContract.disableRoute, id)
    }

    /// `POST /__stubd/reset`: this session (or, without one, the whole server) back to its fixtures.
    @discardableResult
    public func reset() async throws -> ResetDone {
        try await call(AdminContract.reset)
    }

    /// `GET /__stubd/requests`: journal entries matching `filter`, oldest first.
    public func requests(_ filter: RequestFilter = RequestFilter()) async throws -> [RequestRecord] {
        try await call(AdminContract.requests, query: filter).requests
    }

    /// `GET /__stubd/requests/count`: how many journal entries match `filter`.
    public func count(_ filter: RequestFilter = RequestFilter()) async throws -> Int {
        try await call(AdminContract.countRequests, query: filter).count
    }

    /// `DELETE /__stubd/requests`.
    public func clearRequests() async throws {
        _ = try await call(AdminContract.clearRequests)
    }

    /// `PUT /__stubd/scenarios/{name}`.
    public func setScenario(_ name: String, state: String) async throws {
        _ = try await call(AdminContract.setScenario, name, body: ScenarioChange(state: state))
    }

    /// `GET /__stubd/scenarios`: name → state.
    public func scenarios() async throws -> [String: String] {
        try await call(AdminContract.scenarios).scenarios
    }

    /// `PUT /__stubd/clock` (or `DELETE` for nil): the time `{{now}}` templates give this session.
    @discardableResult
    public func setClock(_ date: Date?) async throws -> ClockReading {
        guard let date else { return try await call(AdminContract.clearClock) }
        return try await call(AdminContract.setClock, body: ClockSetting(now: date))
    }

    /// `PUT /__stubd/random`: seeds `{{uuid}}` and `{{randomValue}}` for this session (nil:
    /// unpredictable again).
    public func setSeed(_ seed: UInt64?) async throws {
        _ = try await call(AdminContract.setSeed, body: SeedSetting(seed: seed))
    }

    /// `GET /__stubd/collections/{name}`: this session's items.
    public func items(of collection: String) async throws -> [JSONValue] {
        try await call(AdminContract.collectionItems, collection).items
    }

    /// `PUT /__stubd/collections/{name}`: replaces this session's items; returns how many.
    @discardableResult
    public func replaceItems(of collection: String, with items: [JSONValue]) async throws -> Int {
        try await call(AdminContract.replaceCollection, collection, body: CollectionItems(items)).count
    }

    /// `GET /__stubd/webhooks`: the webhooks this session's requests sent, and how each ended.
    public func webhooks() async throws -> [WebhookRecord] {
        try await call(AdminContract.webhooks).webhooks
    }

    /// Any endpoint the contract declares: `parameters` fill its `{…}` path segments in order,
    /// `body` is sent as JSON, and the answer is read as the endpoint's response type. A status
    /// outside 2xx throws `StubdAdminError` with the server's `error` and `problems`.
    public func call<Request, Response>(_ endpoint: AdminCall<Request, Response>, _ parameters: String..., body: Request? = nil,
                                        query: RequestFilter? = nil) async throws -> Response {
        try await perform(endpoint, parameters, body: body, query: query)
    }

    /// The same, without a body.
    public func call<Response>(_ endpoint: AdminCall<NoBody, Response>, _ parameters: String..., query: RequestFilter? = nil) async throws -> Response {
        try await perform(endpoint, parameters, body: nil, query: query)
    }

    private func perform<Request, Response>(_ endpoint: AdminCall<Request, Response>, _ parameters: [String], body: Request?,
                                            query: RequestFilter?) async throws -> Response {
        let path = AdminContract.prefix + "/" + endpoint.path(parameters)
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        if let query, !query.items.isEmpty {
            components.queryItems = query.items.map { URLQueryItem(name: $0.name, value: $0.value) }
        }
        var headers: [(name: String, value: String)] = []
        if let session { headers.append(("X-Stubd-Session", session)) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        var bytes: [UInt8]?
        if let body, !(body is NoBody) {
            bytes = Array(JSONWriter.write(body.json, pretty: false).utf8)
            headers.append(("Content-Type", "application/json"))
        }
        let (status, data) = try await transport.send(StubdTransportCall(method: endpoint.spec.method, url: components.url!, headers: headers,
                                                                         body: bytes, timeout: timeout))
        let json = (try? JSONParser.parse(data)) ?? .null
        guard (200..<300).contains(status) else {
            var problems: [String] = []
            if case .array(let list)? = json["problems"] {
                problems = list.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
            }
            var message = "HTTP \(status)"
            if case .string(let text)? = json["error"] { message = text }
            throw StubdAdminError(status: status, message: message, problems: problems)
        }
        do {
            return try Response(json: json)
        } catch {
            throw StubdAdminError(status: status, message: "\(endpoint.spec): the answer does not read as \(endpoint.spec.response): \(error.description)",
                                  problems: ["is the server the same stubd version as this kit?"])
        }
    }
}

extension AdminCall {
    /// The path with `parameters` filled in (an array: Swift cannot forward variadics).
    func path(_ parameters: [String]) -> String {
        var rest = parameters[...]
        return spec.path.split(separator: "/").map { segment -> String in
            guard segment.hasPrefix("{"), let value = rest.popFirst() else { return String(segment) }
            return value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
        }.joined(separator: "/")
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
