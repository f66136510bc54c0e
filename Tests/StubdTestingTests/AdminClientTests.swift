import Foundation
import Testing
import StubdTestSupport
import StubdTesting
import StubdEngine
import TargetModel
import StubdTestTags
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The kit's typed admin client against a whole stubd served in memory: every call is built from
/// the admin contract and its answer read back as the contract's type (the same declarations the
/// server answers from), a refusal comes back as `StubdAdminError` with the server's problems,
/// and a session's verification names the closest route's differences.
@Suite(.tags(.inMemory)) struct AdminClientTests {
    static let fixtures = #"""
    {"collections": [{"name": "todos", "path": "/todos", "seed": [{"id": 1, "title": "milk"}]}],
     "routes": [{"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "zen"}},
                {"name": "pay", "request": {"method": "POST", "path": "/pay"}, "response": {"status": 202},
                 "webhooks": [{"url": "http://127.0.0.1:9000/hooks", "text": "paid"}]},
                {"request": {"method": "GET", "path": "/t"}, "response": {"template": true, "text": "{{now format='yyyy-MM-dd'}} {{uuid}}"}},
                {"request": {"method": "GET", "path": "/door"}, "response": {"text": "closed"}, "scenario": "door", "requiredState": "Started"},
                {"request": {"method": "GET", "path": "/door"}, "response": {"text": "open"}, "scenario": "door", "requiredState": "Open"}]}
    """#

    static func client(_ stubd: InMemoryStubd, session: String? = "kit") -> StubdAdminClient {
        StubdAdminClient(baseURL: URL(string: "http://127.0.0.1:8080")!, session: session, transport: InMemoryTransport(stubd.network))
    }

    @Test func routesJournalAndHealthAreTypedValues() async throws {
        let stubd = try InMemoryStubd(Self.fixtures, upstream: { _ in .answered(status: 204, headers: [], body: []) })
        defer { stubd.stop() }
        let admin = Self.client(stubd)
        let health = try await admin.health()
        #expect(health.fixtureRoutes == 11 && health.runtimeRoutes == 0)
        let ids = try await admin.add([Fixture(name: "down", source: "kit", request: RequestPattern(method: "GET", path: "/zen"),
                                               outcome: .response(StubHTTPResponse(status: 503, body: Array("down".utf8))))])
        #expect(ids == ["r1"])
        let routes = try await admin.routes()
        #expect(routes.first?.id == "r1" && routes.first?.origin == "runtime" && routes.first?.session == "kit")
        #expect(stubd.get("/zen", headers: [("X-Stubd-Session", "kit")])?.status == 503)
        #expect(stubd.get("/zen")?.status == 200, "another session still gets the fixture")
        let records = try await admin.requests()
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.method == "GET" && record.path == "/zen" && record.status == 503 && record.route == "down" && record.session == "kit")
        #expect(record.matched && record.routeID == "r1")
        #expect(try await admin.count(RequestFilter(route: "down")) == 1)
        try await admin.remove(id: "r1")
        #expect(try await admin.routes().first?.origin == "fixture")
        // The zen fixture turned off for this session only, then on again.
        let zen = try #require(try await admin.routes().first { ($0.route["request"]?["path"]) == .string("/zen") })
        try await admin.setRoute(id: zen.id, enabled: false)
        #expect(try await admin.routes().first { $0.id == zen.id }?.disabled == true)
        #expect(stubd.get("/zen", headers: [("X-Stubd-Session", "kit")])?.status == 404)
        #expect(stubd.get("/zen")?.status == 200, "another session still gets the fixture")
        try await admin.setRoute(id: zen.id, enabled: true)
        #expect(stubd.get("/zen", headers: [("X-Stubd-Session", "kit")])?.status == 200)
        try await admin.clearRequests()
        #expect(try await admin.count() == 0)
    }

    @Test func stateCallsReadBackWhatTheyChanged() async throws {
        let stubd = try InMemoryStubd(Self.fixtures, upstream: { _ in .answered(status: 204, headers: [], body: []) })
        defer { stubd.stop() }
        let admin = Self.client(stubd)
        try await admin.setScenario("door", state: "Open")
        #expect(try await admin.scenarios() == ["door": "Open"])
        #expect(stubd.get("/door", headers: [("X-Stubd-Session", "kit")])?.text == "open")
        let clock = try await admin.setClock(Date(timeIntervalSince1970: 1_900_000_000))
        #expect(clock.now.hasPrefix("2030-03-17"), "\(clock.now)")
        try await admin.setSeed(7)
        let first = stubd.get("/t", headers: [("X-Stubd-Session", "kit")])?.text
        #expect(first?.hasPrefix("2030-03-17 ") == true, "\(first ?? "")")
        try await admin.reset()
        try await admin.setClock(Date(timeIntervalSince1970: 1_900_000_000))
        try await admin.setSeed(7)
        #expect(stubd.get("/t", headers: [("X-Stubd-Session", "kit")])?.text == first, "the same seed and clock: the same answer")
        #expect(try await admin.replaceItems(of: "todos", with: [.object([("id", .string("a")), ("title", .string("set"))])]) == 1)
        #expect(try await admin.items(of: "todos") == [.object([("id", .string("a")), ("title", .string("set"))])])
        #expect(stubd.send("POST", "/pay", headers: [("X-Stubd-Session", "kit")])?.status == 202)
        let hooks = try await admin.webhooks()
        #expect(hooks.count == 1 && hooks.first?.status == 204 && hooks.first?.url == "http://127.0.0.1:9000/hooks" && hooks.first?.attempts == 1)
    }

    @Test func aRefusalIsAnErrorWithTheServersProblems() async throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let admin = Self.client(stubd)
        let unknownState = await #expect(throws: StubdAdminError.self) { try await admin.setScenario("door", state: "Opne") }
        #expect(unknownState?.status == 400 && unknownState?.message.contains("Opne") == true, "\(String(describing: unknownState))")
        let missing = await #expect(throws: StubdAdminError.self) { try await admin.remove(id: "r404") }
        #expect(missing?.status == 404)
        let fixture = await #expect(throws: StubdAdminError.self) { try await admin.remove(id: "f0") }
        #expect(fixture?.status == 409)
        let noCollection = await #expect(throws: StubdAdminError.self) { try await admin.items(of: "nope") }
        #expect(noCollection?.status == 404)
    }

    /// A session's verification through the kit: a count that does not match names each miss
    /// and its closest route's differences.
    @Test func aFailedCountShowsTheClosestRoutesDifferences() async throws {
        let stubd = try InMemoryStubd(#"{"routes": []}"#)
        defer { stubd.stop() }
        let session = StubdSession(id: "s1", baseURL: URL(string: "http://127.0.0.1:8080")!, transport: InMemoryTransport(stubd.network))
        try await session.stub(UserAPI.login(user: "ada", password: "pw"))
        let request = try AppClient.request(UserAPI.login(user: "bob", password: "pw"), stubd: URL(string: "http://127.0.0.1:8080")!, session: "s1")
        let headers = (request.allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) }
        let target = request.url.map { $0.path + ($0.query.map { "?" + $0 } ?? "") } ?? "/"
        #expect(stubd.send(request.httpMethod ?? "GET", target, headers: headers, body: String(decoding: request.httpBody ?? Data(), as: UTF8.self))?.status == 404)
        let error = await #expect(throws: StubdTestingError.self) {
            try await session.expect(UserAPI.login(user: "ada", password: "pw"), count: 1)
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("in session s1, got 0"), "\(message)")
        #expect(message.contains(#"body field $.user: expected "ada", got "bob""#), "the near miss names the differing field:\n\(message)")
        try await session.expect(UserAPI.login(user: "ada", password: "pw"), count: 0)
        try await session.end()
        #expect(try await session.admin.routes().allSatisfy { $0.session == nil })
    }
}
