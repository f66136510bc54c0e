import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdTestTags
import StubdEngine

/// Turning a route off and on through the admin API, on a stubd served in memory: a fixture
/// route turned off for one session passes its requests to the next route (a template here) for
/// that session only; for every session without a header; listed as disabled; back on by
/// `enable` or by a reset; unknown ids are 404.
@Suite(.tags(.inMemory)) struct RouteSwitchTests {
    static let fixtures = #"""
        {"routes": [
          {"name": "me", "request": {"method": "GET", "path": "/users/me"}, "response": {"text": "me"}},
          {"name": "anyone", "request": {"method": "GET", "pathTemplate": "/users/{login}"}, "response": {"text": "anyone"}}
        ]}
        """#

    private func text(_ stubd: InMemoryStubd, _ session: String? = nil) throws -> String {
        try #require(stubd.get("/users/me", headers: session.map { [("X-Stubd-Session", $0)] } ?? [])).text
    }

    private func disabledIDs(_ stubd: InMemoryStubd, _ session: String? = nil) throws -> [String] {
        let list = try JSONParser.parse(try #require(stubd.get("/__stubd/routes", headers: session.map { [("X-Stubd-Session", $0)] } ?? [])).body)
        guard case .array(let routes)? = list["routes"] else { return [] }
        return routes.compactMap { route in
            if route["disabled"] == .bool(true), case .string(let id)? = route["id"] { return id }
            return nil
        }
    }

    @Test func aRouteTurnedOffForASessionPassesItsRequestsOnForThatSessionOnly() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        #expect(try text(stubd, "a") == "me")
        let off = try #require(stubd.send("POST", "/__stubd/routes/f0/disable", headers: [("X-Stubd-Session", "a")]))
        #expect(off.status == 200 && off.text.contains(#""disabled""#), "\(off.text)")
        #expect(try text(stubd, "a") == "anyone")
        #expect(try text(stubd, "b") == "me")
        #expect(try text(stubd) == "me")
        #expect(try disabledIDs(stubd, "a") == ["f0"])
        #expect(try disabledIDs(stubd, "b").isEmpty)
        // Both routes off: a miss, whose report still names them.
        #expect(try #require(stubd.send("POST", "/__stubd/routes/f1/disable", headers: [("X-Stubd-Session", "a")])).status == 200)
        let miss = try #require(stubd.get("/users/me", headers: [("X-Stubd-Session", "a")]))
        #expect(miss.status == 404 && miss.text.contains("turned off (POST /__stubd/routes/f0/enable turns it back on)"), "\(miss.text)")
        #expect(try #require(stubd.send("POST", "/__stubd/routes/f1/enable", headers: [("X-Stubd-Session", "a")])).status == 200)
        #expect(try text(stubd, "a") == "anyone")
        // A reset of the session turns its routes back on.
        #expect(try #require(stubd.send("POST", "/__stubd/reset", headers: [("X-Stubd-Session", "a")])).status == 200)
        #expect(try text(stubd, "a") == "me")
    }

    @Test func withoutASessionARouteIsOffForEverySessionAndRuntimeRoutesToo() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let added = try #require(stubd.send("POST", "/__stubd/routes", headers: [("Content-Type", "application/json")],
                                            body: #"{"request": {"method": "GET", "path": "/users/me"}, "response": {"text": "runtime"}}"#))
        #expect(added.status == 201)
        #expect(try text(stubd, "x") == "runtime")
        #expect(try #require(stubd.send("POST", "/__stubd/routes/r1/disable")).status == 200)
        #expect(try text(stubd, "x") == "me" && text(stubd) == "me")
        #expect(try #require(stubd.send("POST", "/__stubd/routes/r1/enable")).status == 200)
        #expect(try text(stubd) == "runtime")
        let unknown = try #require(stubd.send("POST", "/__stubd/routes/f9/disable"))
        #expect(unknown.status == 404 && unknown.text.contains("no route has id f9"), "\(unknown.text)")
        #expect(try #require(stubd.send("POST", "/__stubd/routes/zz/disable")).status == 404)
    }
}
