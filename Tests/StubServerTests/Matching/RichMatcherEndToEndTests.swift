import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The fixture format's richer matchers, loaded from a file and hit with curl: path patterns
/// after exact and template routes, value matchers on query, headers and cookies, partial JSON,
/// body text, drawn delays, and the near-miss reasons they give.
@Suite(.tags(.process)) struct RichMatcherEndToEndTests {
    static let fixtures = #"""
    {"routes": [
      {"name": "exact", "request": {"method": "GET", "path": "/users/me"}, "response": {"text": "exact"}},
      {"name": "template", "request": {"method": "GET", "pathTemplate": "/users/{id}/repos"}, "response": {"text": "template"}},
      {"name": "regex", "request": {"method": "GET", "pathPattern": "/users/[0-9]+"}, "response": {"text": "regex"}},
      {"name": "regex-any", "request": {"method": "GET", "pathPattern": "/users/.*"}, "response": {"text": "regex-any"}, "priority": 6},
      {"name": "search", "request": {"method": "GET", "path": "/search",
        "query": {"q": {"contains": "swift"}, "page": {"matches": "[0-9]+"}, "debug": {"absent": true}}, "anyOtherQuery": true},
        "response": {"text": "search"}},
      {"name": "headers", "request": {"method": "GET", "path": "/h",
        "headers": {"X-Client": {"equalTo": "ANDROID", "caseInsensitive": true}, "X-Trace": {"absent": true}},
        "cookies": {"session": {"matches": "[a-f0-9]{8}"}}}, "response": {"text": "headers"}},
      {"name": "partial", "request": {"method": "POST", "path": "/orders",
        "body": {"json": {"items": [{"sku": "b"}, {"sku": "a"}]}, "ignoreExtraElements": true, "ignoreArrayOrder": true}},
        "response": {"status": 201, "text": "partial"}},
      {"name": "contains", "request": {"method": "POST", "path": "/log", "body": {"contains": "ERROR"}}, "response": {"text": "contains"}},
      {"name": "drawn", "request": {"method": "GET", "path": "/drawn"}, "response": {"text": "drawn"}, "delay": {"uniform": [0.2, 0.3]}},
      {"name": "url", "request": {"method": "GET", "urlPattern": "/find\\?q=[a-z]+(&page=[0-9])?"}, "response": {"text": "url"}},
      {"name": "jsonpath", "request": {"method": "POST", "path": "/jp",
        "body": {"all": [{"jsonPath": "$.items[?(@.id == 7)]"}, {"jsonPath": {"expression": "$.user.name", "matches": "a[a-z]+"}}, {"contains": "admin"}]}},
        "response": {"text": "jsonpath"}}
    ]}
    """#

    static func server() throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rich-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(fixtures.utf8).write(to: URL(fileURLWithPath: folder + "/rich.json"))
        return try TestServer(fixtures: try FixtureLoader.load(paths: [folder]))
    }

    static func get(_ server: TestServer, _ arguments: [String]) throws -> String {
        try Curl.run(Array(arguments.dropLast()) + [server.url(arguments.last!)]).stdout
    }

    @Test func pathPatternsComeAfterExactAndTemplateRoutes() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(try Self.get(server, ["/users/me"]) == "exact")
        #expect(try Self.get(server, ["/users/42/repos"]) == "template")
        #expect(try Self.get(server, ["/users/42"]) == "regex")
        #expect(try Self.get(server, ["/users/octocat"]) == "regex-any", "priority 6 loses to regex only where both match")
    }

    @Test func valueMatchersOnQueryHeadersAndCookies() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(try Self.get(server, ["/search?q=learn%20swift&page=2&lang=en"]) == "search", "other parameters allowed")
        #expect(try Self.get(server, ["-w", "%{http_code}", "/search?q=learn%20swift&page=2&debug=1"]).hasSuffix("404"))
        let miss = try Self.get(server, ["/search?q=kotlin&page=two"])
        #expect(miss.contains(#"query q: expected containing \"swift\", got \"kotlin\""#), "\(miss)")
        #expect(miss.contains(#"query page: expected matching /[0-9]+/, got \"two\""#), "\(miss)")
        #expect(try Self.get(server, ["-H", "X-Client: android", "-b", "session=deadbeef", "/h"]) == "headers")
        #expect(try Self.get(server, ["-w", "%{http_code}", "-H", "X-Client: android", "-H", "X-Trace: 1", "-b", "session=deadbeef", "/h"]).hasSuffix("404"))
        let cookie = try Self.get(server, ["-H", "X-Client: android", "-b", "session=nothex!", "/h"])
        #expect(cookie.contains("cookie session: expected matching"), "\(cookie)")
    }

    @Test func partialJSONAndBodyText() throws {
        let server = try Self.server()
        defer { server.stop() }
        let order = #"{"id": 7, "items": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 2}]}"#
        #expect(try Self.get(server, ["-H", "Content-Type: application/json", "--data", order, "/orders"]) == "partial")
        let missing = #"{"items": [{"sku": "a"}]}"#
        #expect(try Self.get(server, ["-w", "%{http_code}", "-H", "Content-Type: application/json", "--data", missing, "/orders"]).hasSuffix("404"))
        #expect(try Self.get(server, ["--data-binary", "2026 ERROR disk full", "/log"]) == "contains")
        #expect(try Self.get(server, ["-w", "%{http_code}", "--data-binary", "all good", "/log"]).hasSuffix("404"))
    }

    /// `urlPattern` (WireMock's): one regex over path and query as sent, order included.
    @Test func aURLPatternMatchesThePathAndQueryTogether() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(try Self.get(server, ["/find?q=abc"]) == "url")
        #expect(try Self.get(server, ["/find?q=abc&page=2"]) == "url")
        #expect(try Self.get(server, ["-w", " %{http_code}", "/find?page=2&q=abc"]).hasSuffix(" 404"), "the query's order is part of a URL pattern")
        let miss = try Self.get(server, ["/find?q=ABC"])
        #expect(miss.contains(#"url: expected to match /\/find\\?q=[a-z]+(&page=[0-9])?/, got /find?q=ABC"#) || miss.contains("url: expected to match"), "\(miss)")
    }

    /// `body.all` (every pattern) with `jsonPath` filters and value tests, and the reason a miss gives.
    @Test func jsonPathsAndSeveralBodyPatternsAllApply() throws {
        let server = try Self.server()
        defer { server.stop() }
        let post = ["-H", "Content-Type: application/json", "--data"]
        #expect(try Self.get(server, post + [#"{"items":[{"id":7}],"user":{"name":"ada","role":"admin"}}"#, "/jp"]) == "jsonpath")
        let wrongName = try Self.get(server, post + [#"{"items":[{"id":7}],"user":{"name":"Bob","role":"admin"}}"#, "/jp"])
        #expect(wrongName.contains(#"body $.user.name: expected matching /a[a-z]+/, got Bob"#), "\(wrongName)")
        let noItem = try Self.get(server, post + [#"{"items":[{"id":8}],"user":{"name":"ada","role":"admin"}}"#, "/jp"])
        #expect(noItem.contains("body $.items[?(@.id == 7)]: expected to select something, got nothing"), "\(noItem)")
        #expect(try Self.get(server, ["-w", " %{http_code}"] + post + [#"{"items":[{"id":7}],"user":{"name":"ada","role":"user"}}"#, "/jp"]).hasSuffix(" 404"))
    }

    @Test func everyMatcherIsWrittenBackAsRead() throws {
        let read = try FixtureReader(file: "rich.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(Self.fixtures.utf8))
        let again = try FixtureReader(file: "again.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(FixtureWriter.text(for: read).utf8))
        #expect(again == read)
        #expect(again[4].request.query.matches.count == 3 && again[4].request.query.othersAllowed)
        #expect(again[8].delayDistribution == .uniform(low: 0.2, high: 0.3))
    }

    @Test func aBadRegexIsNamedWithItsField() {
        let text = #"{"request": {"method": "GET", "pathPattern": "/users/[0-9"}, "response": {"status": 200}}"#
        do {
            _ = try FixtureReader(file: "bad.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
            Issue.record("a bad regex was accepted")
        } catch {
            #expect(error.description == #"bad.json: request.pathPattern: "/users/[0-9" is not a valid regular expression (ICU syntax)"#)
        }
    }

    @Test func aDrawnDelayStaysWithinItsBounds() throws {
        let server = try Self.server()
        defer { server.stop() }
        for _ in 0..<3 {
            _ = try Self.get(server, ["/drawn"])
        }
        let latencies = server.server.requests(JournalQuery(path: "/drawn")).map(\.latency)
        #expect(latencies.count == 3)
        #expect(latencies.allSatisfy { $0 >= 0.2 && $0 < 1.0 }, "\(latencies)")
    }
}
