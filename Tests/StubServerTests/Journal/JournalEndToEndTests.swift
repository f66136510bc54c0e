import Foundation
import Testing
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

@Suite(.serialized) struct JournalEndToEndTests {
    @Test func theJournalStaysBoundedUnderThousandsOfRequests() throws {
        let server = try TestServer(fixtures: [route("/a", outcome: ok("a"))], journalCapacity: 100)
        defer { server.stop() }
        let outcome = RawHTTP.concurrent(count: 500, port: server.port, request: "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(outcome.statuses.allSatisfy { $0 == 200 })
        for _ in 0..<4 {
            _ = RawHTTP.concurrent(count: 500, port: server.port, request: "GET /a?n=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        let entries = server.server.requests()
        #expect(entries.count == 100)
        #expect(entries.last!.sequence == 2500)
        #expect(entries.first!.sequence == 2401)
        #expect(server.server.journal.size == 100)
    }

    @Test func verificationCountsFilterByMethodPathRouteAndMatch() throws {
        let server = try TestServer(fixtures: [route("/users/octocat", name: "user", outcome: ok("u")),
                                               route("/issues", method: "POST", name: "create", outcome: ok("c", status: 201))])
        defer { server.stop() }
        for _ in 0..<3 { _ = try Curl.run([server.url("/users/octocat")]) }
        _ = try Curl.run(["-X", "POST", "--data", "title=x", server.url("/issues")])
        _ = try Curl.run([server.url("/users/nobody")])
        let count = { (query: String) throws -> String in try Curl.run([server.url("/__stubd/requests/count?\(query)")]).stdout }
        #expect(try JSONParser.parse(try count("method=GET"))["count"] == .number(4))
        #expect(try JSONParser.parse(try count("path=/users/octocat"))["count"] == .number(3))
        #expect(try JSONParser.parse(try count("path=/users/*"))["count"] == .number(4))
        #expect(try JSONParser.parse(try count("route=create"))["count"] == .number(1))
        #expect(try JSONParser.parse(try count("matched=false"))["count"] == .number(1))
        let bad = try Curl.run(["-w", "\n%{http_code}", server.url("/__stubd/requests/count?colour=red")])
        #expect(bad.stdout.hasSuffix("\n400"))

        let listed = try JSONParser.parse(try Curl.run([server.url("/__stubd/requests?method=POST")]).stdout)
        guard case .array(let entries)? = listed["requests"], let entry = entries.first else { Issue.record("no entries"); return }
        #expect(entry["body"] == .string("title=x"))
        #expect(entry["status"] == .number(201))
        #expect(entry["route"] == .string("create"))
        let miss = try JSONParser.parse(try Curl.run([server.url("/__stubd/requests?matched=false")]).stdout)
        guard case .array(let misses)? = miss["requests"], case .string(let nearMiss)? = misses.first?["nearMiss"] else {
            Issue.record("no near miss recorded")
            return
        }
        #expect(nearMiss.hasPrefix("closest: user"))

        _ = try Curl.run(["-X", "DELETE", server.url("/__stubd/requests")])
        #expect(try JSONParser.parse(try count(""))["count"] == .number(0))
    }

    @Test func bodiesAreTruncatedToTheLimit() throws {
        let server = try TestServer(fixtures: [route("/up", method: "POST", outcome: ok("ok"))], journalBodyLimit: 10)
        defer { server.stop() }
        _ = try Curl.run(["-X", "POST", "--data", String(repeating: "x", count: 5000), server.url("/up")])
        let entry = server.server.requests().first
        #expect(entry?.body.count == 10)
        #expect(entry?.bodySize == 5000)
    }
}

/// The journal's time is the request's arrival, not the moment its reply went (issue 31: a route
/// with a 2 s delay was journaled, shown and exported 2 s late).
struct JournalArrivalTimeTests {
    @Test func aDelayedRouteIsJournaledAtItsArrival() throws {
        let server = try TestServer(fixtures: [route("/slow", outcome: ok("x"), delay: 0.6)])
        defer { server.stop() }
        let sent = Date()
        _ = try Curl.run([server.url("/slow")])
        let entry = try #require(server.server.requests(JournalQuery(path: "/slow")).first)
        #expect(entry.time.timeIntervalSince(sent) < 0.3, "journaled \(entry.time.timeIntervalSince(sent)) s after it was sent")
        #expect(entry.latency >= 0.6)
    }
}
