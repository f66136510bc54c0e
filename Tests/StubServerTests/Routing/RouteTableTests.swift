import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
import RouteChecks
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

@Suite(.tags(.inMemory))
struct RouteTableTests {
    @Test func twoStubsForTheSameRequestWithDifferentAnswersNameBoth() {
        let first = route("/a", name: "first", outcome: ok("1"))
        let second = route("/a", name: "second", outcome: ok("2"))
        do {
            _ = try RouteTable(fixtures: [first, second])
            Issue.record("expected a conflict")
        } catch {
            #expect("\(error)".contains("second (test) answers the same request as first (test) (GET /a)"))
        }
    }

    @Test func identicalDuplicatesLoadOnceWithAWarning() throws {
        let table = try RouteTable(fixtures: [route("/a", outcome: ok("1")), route("/a", outcome: ok("1"))])
        #expect(table.routes.count == 1)
        #expect(table.warnings.count == 1)
    }

    @Test func queryPairsMatchInAnyOrderButNotWithAnExtraOrChangedValue() throws {
        let table = try RouteTable(fixtures: [route("/r", query: [NameValue("a", "1"), NameValue("b", "x y")], outcome: ok("r"))])
        #expect(hit(table, IncomingRequest(method: "GET", target: "/r?b=x%20y&a=1")) == "GET /r")
        #expect(hit(table, IncomingRequest(method: "GET", target: "/r?b=x%20y&a=1&c=2")) == nil)
        #expect(hit(table, IncomingRequest(method: "GET", target: "/r?b=x%20y&a=2")) == nil)
    }

    @Test func jsonBodiesMatchByMeaning() throws {
        let body = BodyPattern.json(try JSONParser.parse(#"{"a":1,"b":"/"}"#))
        let table = try RouteTable(fixtures: [route("/j", method: "POST", body: body, outcome: ok("j"))])
        #expect(hit(table, IncomingRequest(method: "POST", target: "/j", body: Array(#"{"b":"\/","a":1.0}"#.utf8))) == "POST /j")
        #expect(hit(table, IncomingRequest(method: "POST", target: "/j", body: Array(#"{"a":2,"b":"/"}"#.utf8))) == nil)
    }

    @Test func theMoreSpecificRouteWinsThenTheFirstDeclared() throws {
        let table = try RouteTable(fixtures: [
            route("/p", name: "plain", outcome: ok("plain")),
            route("/p", headers: [NameValue("X-Env", "beta")], name: "beta", outcome: ok("beta")),
        ])
        #expect(hit(table, IncomingRequest(method: "GET", target: "/p", headers: [NameValue("x-env", "beta")])) == "beta")
        #expect(hit(table, IncomingRequest(method: "GET", target: "/p")) == "plain")
    }

    @Test func headFallsBackToTheGetRoute() throws {
        let table = try RouteTable(fixtures: [route("/h", outcome: ok("body"))])
        #expect(hit(table, IncomingRequest(method: "HEAD", target: "/h")) == "GET /h")
        #expect(hit(table, IncomingRequest(method: "POST", target: "/h")) == nil)
    }

    @Test func theAbsoluteRequestFormIsRouted() throws {
        let table = try RouteTable(fixtures: [route("/abs", query: [NameValue("q", "1")], outcome: ok("a"))])
        #expect(hit(table, IncomingRequest(method: "GET", target: "http://example.com/abs?q=1")) == "GET /abs")
    }

    @Test func aMissListsTheClosestRoutesAndWhatDiffered() throws {
        let table = try RouteTable(fixtures: [
            route("/users/octocat", name: "user", outcome: ok("u")),
            route("/zen", name: "zen", outcome: ok("z")),
            route("/repos", query: [NameValue("page", "2")], name: "repos", outcome: ok("r")),
        ])
        guard case .miss(let misses) = table.lookup(IncomingRequest(method: "GET", target: "/repos?page=3")) else {
            Issue.record("expected a miss")
            return
        }
        #expect(misses.first?.route.name == "repos")
        #expect(misses.first?.differences == [#"query page: expected "2", got "3""#])
        guard case .miss(let byPath) = table.lookup(IncomingRequest(method: "POST", target: "/users/octocats")) else {
            Issue.record("expected a miss for POST /users/octocats")
            return
        }
        #expect(byPath.first?.route.name == "user")
        #expect(byPath.first?.differences == ["method: expected GET, got POST", #"path segment 2: expected "octocat", got "octocats""#])
    }

    @Test func nearMissesInALargeTableStillFindTheClosestRoute() throws {
        let table = try RouteTable(fixtures: (0..<10_000).map { route("/r/\($0)/item", name: "r\($0)", outcome: ok("x")) })
        guard case .miss(let misses) = table.lookup(IncomingRequest(method: "GET", target: "/r/5000/itemz")) else {
            Issue.record("expected a miss")
            return
        }
        #expect(misses.first?.route.name == "r5000")
        #expect(misses.first?.differences == [#"path segment 3: expected "item", got "itemz""#])
    }

    @Test func unreachableRoutesAndDroppedBodiesAreWarned() throws {
        let table = try RouteTable(fixtures: [
            route("/g", method: "GET", body: .bytes([1]), outcome: ok("x")),
            route("/n", outcome: ok("dropped", status: 204)),
            route("/q", method: "QUERY", outcome: ok("q")),
        ])
        let warnings = RouteLint.warnings(table)
        #expect(warnings.count == 3)
        #expect(warnings[0].contains("GET with a body is never sent by Alamofire"))
        #expect(warnings[1].contains("status 204 cannot carry a body"))
        #expect(warnings[2].contains("QUERY cannot be received by libevent"))
    }

    private func hit(_ table: RouteTable, _ request: IncomingRequest) -> String? {
        if case .hit(let route) = table.lookup(request) { return route.name }
        return nil
    }
}

/// Routes that load but would not behave as their author expects are warned about.
@Suite(.tags(.inMemory))
struct RouteWarningTests {
    @Test func headBodiesLongDelaysAndBracesInALiteralPathAreWarnedAbout() throws {
        var head = route("/h", method: "HEAD", name: "head", outcome: ok("sample"))
        head.source = "t.json"
        let slow = route("/slow", name: "slow", outcome: ok("x"), delay: 1500)
        let braces = route("/users/{id}", name: "braces", outcome: ok("x"))
        let warnings = RouteLint.warnings(try RouteTable(fixtures: [head, slow, braces]))
        #expect(warnings == [
            "head (t.json): a HEAD answer carries no body; clients get the headers and Content-Length, never the body (sampleData)",
            #"slow (test): delay 1500 s is over a minute; if you meant milliseconds write "1500ms""#,
            #"braces (test): path segment "{id}" is matched literally; did you mean "pathTemplate"?"#,
        ])
    }
}
