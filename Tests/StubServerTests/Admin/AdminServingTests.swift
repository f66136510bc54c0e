import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdTestTags
import StubdEngine

/// The admin API's refusals on a stubd served in memory: a bad route names its field, an unknown
/// or fixture route id is 404/409, an unknown endpoint lists the table, a batch with two routes for
/// one request adds nothing.
@Suite(.tags(.inMemory)) struct AdminServingTests {
    static let zen = #"{"routes": [{"request": {"method": "GET", "path": "/zen"}, "response": {"text": "z"}}]}"#
    static let json = [("Content-Type", "application/json")]

    @Test func badInputGetsAnErrorNamingTheField() throws {
        let stubd = try InMemoryStubd(Self.zen)
        defer { stubd.stop() }
        let bad = try #require(stubd.send("POST", "/__stubd/routes", headers: Self.json,
                                         body: #"{"request": {"method": "GET", "path": "/a"}, "response": {"status": 42}}"#))
        #expect(bad.status == 400)
        #expect(bad.text.contains(#"POST /__stubd/routes: response.status: expected an integer from 100 to 599, found 42"#), "\(bad.text)")
        let unknown = try #require(stubd.send("DELETE", "/__stubd/routes/r999"))
        #expect(unknown.status == 404 && unknown.text.contains("no route has id r999"))
        #expect(try #require(stubd.send("DELETE", "/__stubd/routes/f0")).status == 409)
        let endpoint = try #require(stubd.get("/__stubd/nope"))
        #expect(endpoint.status == 404 && endpoint.text.contains("GET /__stubd/requests/count"))
        let health = try JSONParser.parse(try #require(stubd.get("/__stubd/health")).body)
        #expect(health["status"] == .string("ok"))
        #expect(health["fixtureRoutes"] == .number(1))
    }

    @Test func aBatchWithTwoRoutesForTheSameRequestIsAConflictAndAddsNothing() throws {
        let stubd = try InMemoryStubd(#"{"routes": []}"#)
        defer { stubd.stop() }
        let batch = #"{"routes": [{"request": {"method": "GET", "path": "/c"}, "response": {"text": "1"}}, {"request": {"method": "GET", "path": "/c"}, "response": {"text": "2"}}]}"#
        #expect(try #require(stubd.send("POST", "/__stubd/routes", headers: Self.json, body: batch)).status == 409)
        let health = try JSONParser.parse(try #require(stubd.get("/__stubd/health")).body)
        #expect(health["runtimeRoutes"] == .number(0))
        #expect(try #require(stubd.get("/c")).status == 404)
    }
}
