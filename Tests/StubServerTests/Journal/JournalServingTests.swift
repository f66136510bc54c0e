import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubServer
import StubdTestTags
import StubdRuntime

/// The journal through the admin API, on a stubd served in memory: counts filtered by method,
/// path, route and match; entries with body, status, route and near miss; clearing; bodies cut to
/// the limit. (Bounded under thousands of requests on sockets: `JournalEndToEndTests`.)
@Suite(.tags(.inMemory)) struct JournalServingTests {
    static let fixtures = #"""
    {"routes": [{"name": "user", "request": {"method": "GET", "path": "/users/octocat"}, "response": {"text": "u"}},
                {"name": "create", "request": {"method": "POST", "path": "/issues"}, "response": {"status": 201, "text": "c"}}]}
    """#

    @Test func verificationCountsFilterByMethodPathRouteAndMatch() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        for _ in 0..<3 { _ = stubd.get("/users/octocat") }
        _ = stubd.send("POST", "/issues", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: "title=x")
        _ = stubd.get("/users/nobody")
        func count(_ query: String) throws -> JSONValue? {
            try JSONParser.parse(try #require(stubd.get("/__stubd/requests/count?\(query)")).body)["count"]
        }
        #expect(try count("method=GET") == .number(4))
        #expect(try count("path=/users/octocat") == .number(3))
        #expect(try count("path=/users/*") == .number(4))
        #expect(try count("route=create") == .number(1))
        #expect(try count("matched=false") == .number(1))
        #expect(try #require(stubd.get("/__stubd/requests/count?colour=red")).status == 400)

        let listed = try JSONParser.parse(try #require(stubd.get("/__stubd/requests?method=POST")).body)
        let entry = try #require(Self.first(listed["requests"]))
        #expect(entry["body"] == .string("title=x"))
        #expect(entry["status"] == .number(201))
        #expect(entry["route"] == .string("create"))
        let miss = try JSONParser.parse(try #require(stubd.get("/__stubd/requests?matched=false")).body)
        guard case .string(let nearMiss)? = Self.first(miss["requests"])?["nearMiss"] else {
            Issue.record("no near miss recorded: \(miss)")
            return
        }
        #expect(nearMiss.hasPrefix("closest: user"))
        _ = stubd.send("DELETE", "/__stubd/requests")
        #expect(try count("") == .number(0))
    }

    static func first(_ list: JSONValue?) -> JSONValue? {
        guard case .array(let items)? = list else { return nil }
        return items.first
    }

    @Test func bodiesAreTruncatedToTheLimit() throws {
        let stubd = try InMemoryStubd(#"{"routes": [{"request": {"method": "POST", "path": "/up"}, "response": {"text": "ok"}}]}"#,
                                      settings: { $0.journalBodyLimit = 10 })
        defer { stubd.stop() }
        _ = stubd.send("POST", "/up", headers: [("Content-Type", "application/octet-stream")], body: String(repeating: "x", count: 5000))
        let entry = stubd.server.requests().first
        #expect(entry?.body.count == 10)
        #expect(entry?.bodySize == 5000)
    }
}
