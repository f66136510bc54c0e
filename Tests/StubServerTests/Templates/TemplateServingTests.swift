import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdEngine
import StubdTestTags

/// What templates compute, on a whole stubd served in memory: JSON paths and the body, literal
/// braces, dates and ids made per request, a fixed clock and counters per session, seeded random
/// values, and a file that opts in as a whole. (Escaping on the wire: `TemplateEndToEndTests`.)
@Suite(.tags(.inMemory)) struct TemplateServingTests {
    static func json(_ reply: InMemoryReply?) throws -> [String: Any] {
        let reply = try #require(reply)
        return try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any], "\(reply.text)")
    }

    static func text(_ reply: InMemoryReply?) throws -> String {
        try #require(reply).text
    }

    static func session(_ name: String?) -> [(String, String)] {
        name.map { [("X-Stubd-Session", $0)] } ?? []
    }

    static let json = [("Content-Type", "application/json")]

    @Test func jsonPathAndTheBodyAndLiteralBraces() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [
          {"request": {"method": "POST", "path": "/echo"},
           "response": {"template": true, "text": "name={{jsonPath request.body '$.user.name'}} tags={{jsonPath request.body '$.tags'}} raw={{request.body}} literal=\\{{kept}}"}},
          {"request": {"method": "GET", "path": "/plain"}, "response": {"text": "{{request.path}} is not a template here"}}
        ]}
        """#)
        defer { stubd.stop() }
        let echoed = try Self.text(stubd.send("POST", "/echo", headers: Self.json, body: #"{"user":{"name":"Ada"},"tags":["a","b"]}"#))
        #expect(echoed == #"name=Ada tags=["a","b"] raw={"user":{"name":"Ada"},"tags":["a","b"]} literal={{kept}}"#)
        #expect(try Self.text(stubd.get("/plain")) == "{{request.path}} is not a template here", "no opt-in, no rendering")
    }

    @Test func datesAndIdsAreMadeForEachRequest() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [{"name": "dates", "request": {"method": "GET", "path": "/dates"},
           "response": {"template": true, "json": {"today": "{{now format='yyyy-MM-dd'}}", "yesterday": "{{now offset='-1 days' format='yyyy-MM-dd'}}",
             "paris": "{{now format='HH' timezone='Europe/Paris'}}", "utc": "{{now format='HH'}}", "epoch": "{{now format='epoch'}}",
             "id": "{{uuid}}", "digits": "{{randomValue length=10 type='NUMERIC'}}"}}}]}
        """#)
        defer { stubd.stop() }
        let first = try Self.json(stubd.get("/dates"))
        let second = try Self.json(stubd.get("/dates"))
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
        let stubd = try InMemoryStubd(#"{"templates": true, "routes": [{"request": {"method": "GET", "path": "/c"}, "response": {"text": "{{now format='yyyy-MM-dd HH:mm'}} #{{counter}}"}}]}"#)
        defer { stubd.stop() }
        func get(_ session: String?) throws -> String { try Self.text(stubd.get("/c", headers: Self.session(session))) }
        let set = try Self.text(stubd.send("PUT", "/__stubd/clock", headers: Self.session("a") + Self.json, body: #"{"now": "2030-01-02T03:04:05Z"}"#))
        #expect(set.contains("2030-01-02T03:04:05Z"), "\(set)")
        #expect(try get("a") == "2030-01-02 03:04 #1")
        #expect(try get("a") == "2030-01-02 03:04 #2")
        let other = try get("b")
        #expect(other.hasSuffix(" #1") && !other.hasPrefix("2030"), "another session: real time, its own counter")
        #expect(try Self.text(stubd.send("POST", "/__stubd/reset", headers: Self.session("a"))).contains("reset"))
        let afterReset = try get("a")
        #expect(!afterReset.hasPrefix("2030"), "reset: real time again")
        #expect(afterReset.hasSuffix(" #1"), "reset: the counter starts over")
        let bad = try #require(stubd.send("PUT", "/__stubd/clock", headers: Self.json, body: #"{"now": "tomorrow"}"#))
        #expect(bad.status == 400 && bad.text.contains("ISO 8601"), "\(bad.text)")
    }

    /// `PUT /__stubd/random`: a seeded session gets the same ids and random values for the same
    /// requests on every run; another session is not affected; reset makes it unpredictable again.
    @Test func aSeededSessionGetsRepeatableRandomValues() throws {
        let stubd = try InMemoryStubd(#"{"templates": true, "routes": [{"request": {"method": "GET", "path": "/r"}, "response": {"text": "{{uuid}} {{randomValue length=6 type='NUMERIC'}}"}}]}"#)
        defer { stubd.stop() }
        func seed(_ session: String) throws {
            #expect(try #require(stubd.send("PUT", "/__stubd/random", headers: Self.session(session) + Self.json, body: #"{"seed": 42}"#)).status == 200)
        }
        func get(_ session: String) throws -> String { try Self.text(stubd.get("/r", headers: Self.session(session))) }
        try seed("a")
        try seed("b")
        let a = [try get("a"), try get("a")]
        let b = [try get("b"), try get("b")]
        #expect(a == b, "the same seed, the same sequence: \(a) \(b)")
        #expect(a[0] != a[1], "a sequence, not one value")
        #expect(UUID(uuidString: String(a[0].prefix(36))) != nil, "\(a[0])")
        #expect(try get("c") != a[0], "an unseeded session")
        _ = stubd.send("POST", "/__stubd/reset", headers: Self.session("a"))
        try seed("a")
        #expect(try get("a") == a[0], "seeded again after a reset: the sequence starts over")
        #expect(try #require(stubd.send("PUT", "/__stubd/random", headers: Self.json, body: #"{"seed": -1}"#)).status == 400)
    }

    @Test func aWholeFileOptsIn() throws {
        let stubd = try InMemoryStubd(#"{"templates": true, "routes": [{"request": {"method": "GET", "pathTemplate": "/hello/{name}"}, "response": {"text": "hello {{request.path.name}}"}}]}"#)
        defer { stubd.stop() }
        #expect(try Self.text(stubd.get("/hello/ada")) == "hello ada")
    }
}
