public import AdminContract
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import StubModel
public import TargetModel

/// One test's view of the shared stubd: its own runtime stubs, sequence positions, scenario
/// states and journal, selected by the `X-Stubd-Session` header that the app sends once it is
/// launched with `launchEnvironment` (docs/MOYA.md's pointing recipe reads `STUBD_SESSION`).
public struct StubdSession: Sendable {
    /// The session id (`X-Stubd-Session`).
    public let id: String
    /// The server.
    public let baseURL: URL
    /// The admin client scoped to this session, for anything the kit does not wrap.
    public let admin: StubdAdminClient
    /// How targets become routes: as the server compiles them (`--match`), by default exact.
    public let options: TargetCompileOptions

    /// A session on the stubd at `baseURL`; `Stubd.session()` also waits for the server.
    /// `transport` is HTTP unless a test of the kit hands in another.
    public init(id: String, baseURL: URL, token: String? = nil, options: TargetCompileOptions = TargetCompileOptions(),
                transport: any StubdTransport = URLSessionTransport()) {
        self.id = id
        self.baseURL = baseURL
        self.admin = StubdAdminClient(baseURL: baseURL, session: id, token: token, transport: transport)
        self.options = options
    }

    /// Merge into `XCUIApplication.launchEnvironment`: where the app finds stubd, which session
    /// its requests belong to, and the request timeout a test build should use (`STUBD_TIMEOUT`,
    /// seconds: docs/UI-TESTS.md's lines read it, so a timed-out stub shows in 2 s, not 60).
    public var launchEnvironment: [String: String] {
        ["STUBD_BASE_URL": baseURL.absoluteString, "STUBD_SESSION": id, "STUBD_TIMEOUT": String(Int(Self.requestTimeout))]
    }

    /// Makes `target` answer `answer` for this session only (beating fixtures and global routes);
    /// a later stub of the same target replaces it.
    @discardableResult
    public func stub(_ target: any TargetType, _ answer: StubResponse = .sample) async throws -> String {
        try await stub(target, sequence: [answer])
    }

    /// Makes `target` answer each of `answers` in turn, then repeat the last (or start over with
    /// `afterLast: .cycle`).
    @discardableResult
    public func stub(_ target: any TargetType, sequence answers: [StubResponse], afterLast: SequenceEnd = .repeatLast) async throws -> String {
        var fixture = try Self.fixture(for: target, options: options)
        let delays = Set(answers.map { $0.delay ?? -1 })
        guard delays.count <= 1 else { throw StubdTestingError.sequenceDelays(target: fixture.name) }
        if !answers.isEmpty {
            fixture.outcomes = answers.map { $0.outcome ?? fixture.outcome }
            fixture.afterLast = afterLast
            if let delay = answers[0].delay { fixture.delay = delay }
        }
        fixture.source = "StubdTesting session \(id)"
        return try await admin.add([fixture]).first ?? ""
    }

    /// How many requests of this session `target`'s route answered — requests the app made: a
    /// client's silent re-send of a request that got a fault sending no byte (the same method,
    /// target and body on the same route within 2 s, which curl, URLSession, Chromium, OkHttp and
    /// Java make on a reused connection) is journaled with `resend` and not counted.
    public func count(_ target: any TargetType) async throws -> Int {
        try await admin.requests(try filter(for: target)).filter { !$0.resend }.count
    }

    /// This session's requests that `target`'s route answered, oldest first (`method`, `url`,
    /// `headers`, `body`, `status`, …).
    public func requests(_ target: any TargetType) async throws -> [RequestRecord] {
        try await admin.requests(try filter(for: target))
    }

    /// Every request of this session, oldest first.
    public func requests() async throws -> [RequestRecord] {
        try await admin.requests()
    }

    /// Throws `StubdTestingError.countMismatch` — with each of this session's missed requests and
    /// its closest route's differences — unless `target` was answered exactly `count` times.
    public func expect(_ target: any TargetType, count expected: Int) async throws {
        let filter = try filter(for: target)
        let actual = try await admin.requests(filter).filter { !$0.resend }.count
        guard actual != expected else { return }
        let misses = try await admin.requests(RequestFilter(matched: false)).map(Self.describeMiss)
        throw StubdTestingError.countMismatch(target: filter.route ?? "", request: "\(filter.method ?? "") \(filter.path ?? "")",
                                              expected: expected, actual: actual, session: id, misses: misses)
    }

    /// The strict check, for the end of a test: throws `StubdTestingError.strict` listing every
    /// stub this session added that no request reached, and every request of this session that
    /// reached no stub (with its closest route) — the five stubs for four calls, the call nobody
    /// stubbed that the app swallowed. `.stubdSession(strict: true)` runs it after the test. While
    /// recording (`mode` `record` or `live`, `STUBD_MODE` by default) a request forwarded to the
    /// real API was answered, and is not a miss.
    public func verifyStrict(mode: StubdMode = .current) async throws {
        let unused = try await admin.routes()
            .filter { $0.session == id && $0.hits == 0 }
            .map { entry -> String in
                let name: String = if case .string(let text)? = entry.route["name"] { text } else { entry.id }
                let method: String = if case .string(let text)? = entry.route["request"]?["method"] { text } else { "" }
                let path = ["path", "pathTemplate", "pathPattern", "urlPattern"].lazy.compactMap { key -> String? in
                    if case .string(let text)? = entry.route["request"]?[key] { return text }
                    return nil
                }.first ?? ""
                return "\(name): \(method) \(path) → \(entry.answers), never requested"
            }
        let misses = try await admin.requests(RequestFilter(matched: false))
            .filter { mode == .playback || !$0.forwarded }
            .map(Self.describeMiss)
        guard unused.isEmpty && misses.isEmpty else { throw StubdTestingError.strict(session: id, unused: unused, misses: misses) }
    }

    /// Fixes the time `{{now}}` templates give this session's requests (nil: real time again),
    /// so a screen that shows dates looks the same on every run.
    public func setClock(_ date: Date?) async throws {
        try await admin.setClock(date)
    }

    /// Removes this session's stubs, sequence positions, scenario states and journal entries.
    public func end() async throws {
        try await admin.reset()
    }

    /// The route stubd makes of `target`: compiled exactly as the server compiles targets.
    static func fixture(for target: any TargetType, options: TargetCompileOptions) throws -> Fixture {
        do {
            let compiled = try CompiledTargets.compile([target], options: TargetCompileOptions(never: .serve, match: options.match))
            guard let fixture = compiled.fixtures.first else { throw StubdTestingError.target("\(target): no route could be made") }
            return fixture
        } catch let errors as TargetCompileErrors {
            throw StubdTestingError.target(errors.errors.map(\.description).joined(separator: "; "))
        }
    }

    /// Requests `target`'s route answered: its method and route name, and its path when literal.
    func filter(for target: any TargetType) throws -> RequestFilter {
        let fixture = try Self.fixture(for: target, options: options)
        var path: String?
        if case .literal(let segments) = fixture.request.path { path = segments.description }  // as the journal writes it
        return RequestFilter(method: fixture.request.method, path: path, route: fixture.name, matched: true)
    }

    /// `GET /users/octocats → closest: user (path segment 2: expected "octocat", got "octocats")`.
    static func describeMiss(_ entry: RequestRecord) -> String {
        "\(entry.method) \(entry.url)" + ((entry.nearMiss ?? "").isEmpty ? "" : " → \(entry.nearMiss ?? "")")
    }
}

extension StubdSession {
    /// How long a test's request waits without a byte before it fails with
    /// `NSURLErrorTimedOut` (URLSession's default is 60 s): a `.networkError(NSURLErrorTimedOut)`
    /// stub — stubd holds the connection (`hang`) — fails a unit test in 2 s, with the same error.
    /// A stub delayed longer than this needs `makeURLSession(timeout:)` with more.
    public static let requestTimeout: TimeInterval = 2

    /// A `URLSessionConfiguration` whose requests belong to this session (`X-Stubd-Session` in
    /// `httpAdditionalHeaders`) — per test, no global state, so tests using their own sessions run
    /// in parallel — and time out after `requestTimeout` without a byte. Requests must still be
    /// addressed to stubd: `request(for:)` does it for a target, or build URLs on `baseURL`.
    public var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[SessionID.header] = id
        configuration.httpAdditionalHeaders = headers
        configuration.timeoutIntervalForRequest = Self.requestTimeout
        return configuration
    }

    /// A `URLSession` of this session (`configuration`), its requests timing out after `timeout`
    /// seconds without a byte (2 by default, so a timed-out stub costs 2 s, not 60); finish it with
    /// `finishTasksAndInvalidate()` when the test ends.
    public func makeURLSession(timeout: TimeInterval = StubdSession.requestTimeout) -> URLSession {
        let configuration = self.configuration
        configuration.timeoutIntervalForRequest = timeout
        return URLSession(configuration: configuration)
    }

    /// What a `MoyaProvider`'s `endpointClosure` changes so a unit test's provider reaches this
    /// session (with real Moya, whose `Endpoint` the kit cannot name): `url` with scheme, host and
    /// port swapped for stubd's (base path and query kept), and the headers to add — the app's
    /// server name as `X-Stubd-Host` (targets that differ by host alone keep their own answers)
    /// and `X-Stubd-Session`. docs/UI-TESTS.md has the closure.
    public func pointing(_ url: String) -> (url: String, headers: [String: String]) {
        guard var components = URLComponents(string: url) else { return (url, [SessionID.header: id]) }
        let server = components.host ?? ""
        (components.scheme, components.host, components.port) = (baseURL.scheme, baseURL.host, baseURL.port)
        var headers = [SessionID.header: id]
        if !server.isEmpty { headers["X-Stubd-Host"] = server }
        return (components.string ?? url, headers)
    }

    /// Moya's request for `target`, pointed at this stubd as docs/MOYA.md's recipe points an app
    /// (scheme, host and port swapped; base path, query, headers and body kept), in this session.
    public func request(for target: any TargetType) throws -> URLRequest {
        var request = try Endpoint(target: target).urlRequest()
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw StubdTestingError.target("\(target): Moya built no URL")
        }
        (components.scheme, components.host, components.port) = (baseURL.scheme, baseURL.host, baseURL.port)
        request.url = components.url
        request.setValue(id, forHTTPHeaderField: SessionID.header)
        return request
    }
}
