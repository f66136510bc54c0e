import Foundation
import Testing
import StubdTestSupport
import TargetModel
import TargetServing
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The documented precedence order, one rule per test, plus templates end to end.
@Suite(.tags(.process))
struct PrecedenceTests {
    static func template(_ raw: String, name: String, priority: Int = Fixture.defaultPriority, headers: [NameValue] = []) -> Fixture {
        guard case .success(let parsed) = PathTemplate.parse(raw) else { fatalError("bad template \(raw)") }
        return Fixture(name: name, source: "test", request: RequestPattern(method: "GET", path: .template(parsed), headers: headers),
                       outcome: ok(name), priority: priority)
    }

    static func literal(_ path: String, name: String, priority: Int = Fixture.defaultPriority) -> Fixture {
        Fixture(name: name, source: "test", request: RequestPattern(method: "GET", path: path), outcome: ok(name), priority: priority)
    }

    private func winner(_ fixtures: [Fixture], _ target: String, headers: [NameValue] = []) throws -> String? {
        if case .hit(let route) = try RouteTable(fixtures: fixtures).lookup(IncomingRequest(method: "GET", target: target, headers: headers)) {
            return route.name
        }
        return nil
    }

    @Test func aTemplateMatchesAnyOneSegment() throws {
        let fixtures = [Self.template("/users/{login}", name: "user")]
        #expect(try winner(fixtures, "/users/octocat") == "user")
        #expect(try winner(fixtures, "/users/John%20Doe") == "user")
        #expect(try winner(fixtures, "/users/a/b") == nil)
        #expect(try winner(fixtures, "/users/") == nil)
        #expect(try winner(fixtures, "/users") == nil)
    }

    @Test func anExactPathBeatsATemplateWhicheverIsDeclaredFirst() throws {
        let exact = Self.literal("/users/me", name: "me")
        let any = Self.template("/users/{login}", name: "any")
        #expect(try winner([any, exact], "/users/me") == "me")
        #expect(try winner([exact, any], "/users/me") == "me")
        #expect(try winner([any, exact], "/users/you") == "any")
    }

    @Test func betweenTemplatesTheEarlierLiteralSegmentWins() throws {
        let issues = Self.template("/repos/{owner}/issues", name: "issues")
        let repo = Self.template("/repos/{owner}/{repo}", name: "repo")
        #expect(try winner([repo, issues], "/repos/octocat/issues") == "issues")
        #expect(try winner([repo, issues], "/repos/octocat/hello") == "repo")
    }

    /// With `anyOtherQuery`, a route naming more query parameters wins, whichever is declared first.
    @Test func aRouteNamingMoreQueryParametersWins() throws {
        var all = Self.literal("/items", name: "all")
        all.request.query.othersAllowed = true
        var second = Fixture(name: "second", source: "test",
                             request: RequestPattern(method: "GET", path: "/items", query: [NameValue("page", "2")]), outcome: ok("second"))
        second.request.query.othersAllowed = true
        #expect(try winner([all, second], "/items?page=2&cb=9") == "second")
        #expect(try winner([second, all], "/items?page=2&cb=9") == "second")
        #expect(try winner([all, second], "/items?page=3") == "all")
    }

    @Test func priorityComesFirst() throws {
        let exact = Self.literal("/users/me", name: "me")
        let urgent = Self.template("/users/{login}", name: "urgent", priority: 1)
        #expect(try winner([exact, urgent], "/users/me") == "urgent")
    }

    @Test func moreConstraintsWinThenDeclarationOrder() throws {
        let plain = Self.template("/t/{x}", name: "plain")
        let withHeader = Self.template("/t/{y}", name: "header", headers: [NameValue("X-Env", "beta")])
        let second = Self.template("/t/{z}", name: "second")
        #expect(try winner([plain, withHeader, second], "/t/1", headers: [NameValue("X-Env", "beta")]) == "header")
        #expect(try winner([plain, withHeader, second], "/t/1") == "plain")
        #expect(try winner([second, withHeader, plain], "/t/1") == "second")
    }

    @Test func aTargetCanOptIntoATemplate() throws {
        struct User: TargetType {
            var baseURL: URL { URL(string: "https://api.example.com/v3")! }
            var path: String { "/users/octocat" }
            var method: TargetModel.Method { .get }
            var task: Task { .requestPlain }
            var headers: [String: String]? { nil }
            var pathTemplate: String? { "/users/{login}" }
        }
        let table = try RouteTable(targets: [User()])
        #expect(table.routes.first?.fixture.request.path.description == "/v3/users/{login}")
        guard case .hit = table.lookup(IncomingRequest(method: "GET", target: "/v3/users/someone")) else {
            Issue.record("the template did not match")
            return
        }
    }

    @Test func aTemplateThatDoesNotFitTheTargetsPathIsAnError() {
        struct Wrong: TargetType {
            var baseURL: URL { URL(string: "https://h")! }
            var path: String { "/users/octocat" }
            var method: TargetModel.Method { .get }
            var task: Task { .requestPlain }
            var headers: [String: String]? { nil }
            var pathTemplate: String? { "/orgs/{org}" }
        }
        #expect(throws: RouteTableError.self) { try RouteTable(targets: [Wrong()]) }
    }

    @Test func legacyDoubleSlashesAndEncodedSemicolonsMatchTheSameRoute() throws {
        let fixtures = [Self.literal("/v1/users/a;b", name: "users")]
        #expect(try winner(fixtures, "/v1//users/a%3Bb") == "users")
        #expect(try winner(fixtures, "/v1/users/a;b/") == nil)
    }

    @Test func templatesAreServedOverTheWire() throws {
        let server = try TestServer(fixtures: [Self.template("/users/{login}", name: "user"), Self.literal("/users/me", name: "me")])
        defer { server.stop() }
        #expect(try Curl.run([server.url("/users/someone")]).stdout == "user")
        #expect(try Curl.run([server.url("/users/me")]).stdout == "me")
    }
}
