import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubModel
import TargetModel

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

    /// A client for the server at `baseURL`.
    public init(baseURL: URL, session: String? = nil, token: String? = nil, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.session = session
        self.token = token
        self.timeout = timeout
    }

    /// `GET /__stubd/health`.
    public func health() async throws -> JSONValue {
        try await call("GET", "health")
    }

    /// `GET /__stubd/routes`: every route this session sees.
    public func routes() async throws -> JSONValue {
        try await call("GET", "routes")
    }

    /// `POST /__stubd/routes`; returns the new routes' ids.
    @discardableResult
    public func add(_ fixtures: [Fixture]) async throws -> [String] {
        let reply = try await call("POST", "routes", body: Array(FixtureWriter.text(for: fixtures).utf8))
        guard case .array(let ids)? = reply["added"] else { return [] }
        return ids.compactMap { if case .string(let id) = $0 { return id } else { return nil } }
    }

    /// Adds Swift targets as runtime routes, compiled as the server compiles them.
    @discardableResult
    public func add(targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) async throws -> [String] {
        try await add(try CompiledTargets.compile(targets, options: options).fixtures)
    }

    /// `PUT /__stubd/routes/{id}`.
    public func replace(id: String, with fixture: Fixture) async throws {
        _ = try await call("PUT", "routes/\(id)", body: Array(JSONWriter.write(FixtureWriter.route(fixture), pretty: false).utf8))
    }

    /// `DELETE /__stubd/routes/{id}`.
    public func remove(id: String) async throws {
        _ = try await call("DELETE", "routes/\(id)")
    }

    /// `POST /__stubd/reset`: this session (or, without one, the whole server) back to its fixtures.
    public func reset() async throws {
        _ = try await call("POST", "reset")
    }

    /// `GET /__stubd/requests`: journal entries matching `filter`, oldest first.
    public func requests(_ filter: RequestFilter = RequestFilter()) async throws -> [JSONValue] {
        let reply = try await call("GET", "requests", query: filter)
        guard case .array(let entries)? = reply["requests"] else { return [] }
        return entries
    }

    /// `GET /__stubd/requests/count`: how many journal entries match `filter`.
    public func count(_ filter: RequestFilter = RequestFilter()) async throws -> Int {
        let reply = try await call("GET", "requests/count", query: filter)
        guard case .number(let count)? = reply["count"] else { return 0 }
        return Int(count)
    }

    /// `DELETE /__stubd/requests`.
    public func clearRequests() async throws {
        _ = try await call("DELETE", "requests")
    }

    /// `PUT /__stubd/scenarios/{name}`.
    public func setScenario(_ name: String, state: String) async throws {
        _ = try await call("PUT", "scenarios/\(name)", body: Array(JSONWriter.write(.object([("state", .string(state))]), pretty: false).utf8))
    }

    /// `PUT /__stubd/clock` (or `DELETE` for nil): the time `{{now}}` templates give this session.
    public func setClock(_ date: Date?) async throws {
        guard let date else {
            _ = try await call("DELETE", "clock")
            return
        }
        let text = ISO8601DateFormatter().string(from: date)
        _ = try await call("PUT", "clock", body: Array(JSONWriter.write(.object([("now", .string(text))]), pretty: false).utf8))
    }

    /// `GET /__stubd/scenarios`: name → state.
    public func scenarios() async throws -> [String: String] {
        guard case .object(let members)? = try await call("GET", "scenarios")["scenarios"] else { return [:] }
        return Dictionary(members.compactMap { member in
            if case .string(let state) = member.value { return (member.key, state) } else { return nil }
        }, uniquingKeysWith: { first, _ in first })
    }

    private func call(_ method: String, _ path: String, body: [UInt8]? = nil, query: RequestFilter? = nil) async throws -> JSONValue {
        var components = URLComponents(url: baseURL.appendingPathComponent("__stubd/\(path)"), resolvingAgainstBaseURL: false)!
        if let query {
            components.queryItems = query.items.map { URLQueryItem(name: $0.name, value: $0.value) }
            if components.queryItems?.isEmpty == true { components.queryItems = nil }
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        if let session { request.setValue(session, forHTTPHeaderField: "X-Stubd-Session") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let urlSession = URLSession(configuration: configuration)
        defer { urlSession.finishTasksAndInvalidate() }
        let (data, response) = try await urlSession.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONParser.parse([UInt8](data))) ?? .null
        guard (200..<300).contains(status) else {
            var problems: [String] = []
            if case .array(let list)? = json["problems"] {
                problems = list.compactMap { if case .string(let text) = $0 { return text } else { return nil } }
            }
            var message = "HTTP \(status)"
            if case .string(let text)? = json["error"] { message = text }
            throw StubdAdminError(status: status, message: message, problems: problems)
        }
        return json
    }
}
