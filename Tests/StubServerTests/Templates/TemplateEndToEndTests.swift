import Foundation
import Testing
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

/// Templated responses served over a real socket and read with curl: every request source,
/// dates, ids, escaping in JSON strings and headers, per-file opt-in, and load-time problems.
@Suite struct TemplateEndToEndTests {
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

    @Test func jsonPathAndTheBodyAndLiteralBraces() throws {
        let server = try Self.server()
        defer { server.stop() }
        let echoed = try Curl.run(["-H", "Content-Type: application/json", "--data", #"{"user":{"name":"Ada"},"tags":["a","b"]}"#, server.url("/echo")]).stdout
        #expect(echoed == #"name=Ada tags=["a","b"] raw={"user":{"name":"Ada"},"tags":["a","b"]} literal={{kept}}"#)
        #expect(try Curl.run([server.url("/plain")]).stdout == "{{request.path}} is not a template here", "no opt-in, no rendering")
    }

    @Test func datesAndIdsAreMadeForEachRequest() throws {
        let server = try Self.server()
        defer { server.stop() }
        let first = try Self.json(try Curl.run([server.url("/dates")]).stdout)
        let second = try Self.json(try Curl.run([server.url("/dates")]).stdout)
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "UTC")
        day.dateFormat = "yyyy-MM-dd"
        let now = Date()
        #expect([day.string(from: now), day.string(from: now.addingTimeInterval(-5))].contains(first["today"] as? String ?? ""))
        #expect([day.string(from: now.addingTimeInterval(-86_400)), day.string(from: now.addingTimeInterval(-86_405))].contains(first["yesterday"] as? String ?? ""))
        let utcHour = Int(first["utc"] as? String ?? "") ?? -1, parisHour = Int(first["paris"] as? String ?? "") ?? -1
        #expect([1, 2].contains((parisHour - utcHour + 24) % 24), "Paris is UTC+1 or +2: \(parisHour) vs \(utcHour)")
        let epoch = Double(first["epoch"] as? String ?? "") ?? 0
        #expect(abs(epoch / 1000 - now.timeIntervalSince1970) < 60)
        #expect((first["id"] as? String).flatMap(UUID.init(uuidString:)) != nil)
        #expect(first["id"] as? String != second["id"] as? String, "a new id per request")
        #expect((first["digits"] as? String)?.count == 10 && (first["digits"] as? String)?.allSatisfy(\.isNumber) == true)
    }

    /// `PUT /__stubd/clock` per session and `{{counter}}` per route and session, both reset with the session.
    @Test func aFixedClockAndCountersPerSession() throws {
        let server = try Self.server(["c.json": #"{"templates": true, "routes": [{"request": {"method": "GET", "path": "/c"}, "response": {"text": "{{now format='yyyy-MM-dd HH:mm'}} #{{counter}}"}}]}"#])
        defer { server.stop() }
        func get(_ session: String?) throws -> String {
            try Curl.run((session.map { ["-H", "X-Stubd-Session: \($0)"] } ?? []) + [server.url("/c")]).stdout
        }
        let set = try Curl.run(["-X", "PUT", "-H", "X-Stubd-Session: a", "-H", "Content-Type: application/json",
                                "--data", #"{"now": "2030-01-02T03:04:05Z"}"#, server.url("/__stubd/clock")])
        #expect(set.stdout.contains("2030-01-02T03:04:05Z"), "\(set.stdout)")
        #expect(try get("a") == "2030-01-02 03:04 #1")
        #expect(try get("a") == "2030-01-02 03:04 #2")
        let other = try get("b")
        #expect(other.hasSuffix(" #1") && !other.hasPrefix("2030"), "another session: real time, its own counter")
        #expect(try Curl.run(["-X", "POST", "-H", "X-Stubd-Session: a", server.url("/__stubd/reset")]).stdout.contains("reset"))
        let afterReset = try get("a")
        #expect(!afterReset.hasPrefix("2030"), "reset: real time again")
        #expect(afterReset.hasSuffix(" #1"), "reset: the counter starts over")
        let bad = try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"now": "tomorrow"}"#, "-w", " %{http_code}", server.url("/__stubd/clock")])
        #expect(bad.stdout.hasSuffix(" 400") && bad.stdout.contains("ISO 8601"), "\(bad.stdout)")
    }

    /// `PUT /__stubd/random`: a seeded session gets the same ids and random values for the same
    /// requests on every run; another session is not affected; reset makes it unpredictable again.
    @Test func aSeededSessionGetsRepeatableRandomValues() throws {
        let server = try Self.server(["r.json": #"{"templates": true, "routes": [{"request": {"method": "GET", "path": "/r"}, "response": {"text": "{{uuid}} {{randomValue length=6 type='NUMERIC'}}"}}]}"#])
        defer { server.stop() }
        func seed(_ session: String) throws {
            _ = try Curl.run(["-X", "PUT", "-H", "X-Stubd-Session: \(session)", "-H", "Content-Type: application/json", "--data", #"{"seed": 42}"#, server.url("/__stubd/random")])
        }
        func get(_ session: String) throws -> String { try Curl.run(["-H", "X-Stubd-Session: \(session)", server.url("/r")]).stdout }
        try seed("a")
        try seed("b")
        let a = [try get("a"), try get("a")]
        let b = [try get("b"), try get("b")]
        #expect(a == b, "the same seed, the same sequence: \(a) \(b)")
        #expect(a[0] != a[1], "a sequence, not one value")
        #expect(UUID(uuidString: String(a[0].prefix(36))) != nil, "\(a[0])")
        #expect(try get("c") != a[0], "an unseeded session")
        _ = try Curl.run(["-X", "POST", "-H", "X-Stubd-Session: a", server.url("/__stubd/reset")])
        try seed("a")
        #expect(try get("a") == a[0], "seeded again after a reset: the sequence starts over")
        let bad = try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"seed": -1}"#, "-w", " %{http_code}", server.url("/__stubd/random")])
        #expect(bad.stdout.hasSuffix(" 400"))
    }

    @Test func aWholeFileOptsIn() throws {
        let server = try Self.server(["f.json": #"{"templates": true, "routes": [{"request": {"method": "GET", "pathTemplate": "/hello/{name}"}, "response": {"text": "hello {{request.path.name}}"}}]}"#])
        defer { server.stop() }
        #expect(try Curl.run([server.url("/hello/ada")]).stdout == "hello ada")
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
