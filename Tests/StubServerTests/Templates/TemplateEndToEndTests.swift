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

/// Templated responses served over a real socket and read with curl: every request source and
/// escaping in JSON strings and headers on the wire, and load-time problems. What templates
/// compute (dates, ids, clocks, counters, seeds, JSON paths) is checked in memory
/// (`TemplateServingTests`).
@Suite(.tags(.process)) struct TemplateEndToEndTests {
    static let fixtures = #"""
    {"routes": [
      {"request": {"method": "GET", "pathTemplate": "/users/{id}", "anyOtherQuery": true},
       "response": {"template": true, "headers": {"X-Id": "{{request.path.id}}", "X-Q": "{{request.query.q}}", "Content-Type": "application/json"},
         "json": {"id": "{{request.path.id}}", "segment": "{{request.path.[0]}}", "q": "{{request.query.q}}", "agent": "{{request.headers.User-Agent}}",
                  "cookie": "{{request.cookies.sid}}", "method": "{{request.method}}", "url": "{{request.url}}", "route": "{{route.name}}",
                  "session": "{{session}}", "count": 3, "nested": ["{{request.path.id}}-a", {"x": "{{request.query.q}}"}]}}},
      {"request": {"method": "POST", "path": "/echo"},
       "response": {"template": true, "text": "name={{jsonPath request.body '$.user.name'}} tags={{jsonPath request.body '$.tags'}} raw={{request.body}} literal=\\{{kept}}"}},
      {"name": "dates", "request": {"method": "GET", "path": "/dates"},
       "response": {"template": true, "json": {"today": "{{now format='yyyy-MM-dd'}}", "yesterday": "{{now offset='-1 days' format='yyyy-MM-dd'}}",
         "paris": "{{now format='HH' timezone='Europe/Paris'}}", "utc": "{{now format='HH'}}", "epoch": "{{now format='epoch'}}",
         "id": "{{uuid}}", "digits": "{{randomValue length=10 type='NUMERIC'}}"}}},
      {"request": {"method": "GET", "path": "/plain"}, "response": {"text": "{{request.path}} is not a template here"}}
    ]}
    """#

    static func server(_ files: [String: String] = ["t.json": fixtures]) throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-tpl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return try TestServer(fixtures: try FixtureLoader.load(paths: [folder]))
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func everyRequestSourceIsRenderedAndJSONStaysValid() throws {
        let server = try Self.server()
        defer { server.stop() }
        // A value with a quote, a backslash and CR/LF: still one JSON string, and never a second header.
        let result = try Curl.run(["-i", "-H", "User-Agent: probe/1", "-H", "Cookie: theme=dark; sid=s-42", "-H", "X-Stubd-Session: t1",
                                   server.url("/users/7?q=a%22b%5Cc%0D%0AX-Evil:%201")])
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts[0]
        #expect(head.contains("X-Id: 7\r\n"))
        #expect(head.contains("X-Q: a\"b\\cX-Evil: 1\r\n"), "CR and LF are removed from a header value: \(head)")
        #expect(!head.contains("\r\nX-Evil"), "no header was injected")
        let body = try Self.json(parts.dropFirst().joined(separator: "\r\n\r\n"))
        #expect(body["id"] as? String == "7")
        #expect(body["segment"] as? String == "users")
        #expect(body["q"] as? String == "a\"b\\c\r\nX-Evil: 1")
        #expect(body["agent"] as? String == "probe/1")
        #expect(body["cookie"] as? String == "s-42")
        #expect(body["method"] as? String == "GET")
        #expect(body["url"] as? String == "/users/7?q=a%22b%5Cc%0D%0AX-Evil:%201")
        #expect(body["route"] as? String == "GET /users/{id}")
        #expect(body["session"] as? String == "t1")
        #expect(body["count"] as? Int == 3)
        #expect((body["nested"] as? [Any])?.first as? String == "7-a")
    }

    @Test func aBadTemplateIsRefusedNamingFileFieldAndColumn() throws {
        let cases: [(String, String)] = [
            (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"template": true, "json": {"user": {"id": "x{{reqest.path}}"}}}}]}"#,
             #"b.json: routes[0].response.json.user.id: template column 2: unknown name "reqest.path""#),
            (#"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"template": true, "headers": {"X-A": "{{now offset='soon'}}"}}}]}"#,
             "b.json: routes[0].response.headers.X-A: template column 1: offset 'soon'"),
            (#"{"templates": true, "routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"text": "ok {{request.body"}}]}"#,
             "b.json: routes[0].response.text: template column 4: {{ without }}"),
        ]
        for (text, expected) in cases {
            #expect(throws: FixtureErrors.self) {
                _ = try FixtureReader(file: "b.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
            }
            do {
                _ = try FixtureReader(file: "b.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
            } catch {
                #expect(error.errors.first?.description.hasPrefix(expected) == true, "\(error.errors.first?.description ?? "")")
            }
        }
    }

    @Test func theFlagIsWrittenBackAsRead() throws {
        let read = try FixtureReader(file: "t.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(Self.fixtures.utf8))
        let again = try FixtureReader(file: "again.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(FixtureWriter.text(for: read).utf8))
        #expect(again == read)
    }
}
