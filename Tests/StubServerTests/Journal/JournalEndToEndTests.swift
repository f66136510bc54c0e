import Foundation
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

@Suite(.serialized, .tags(.process)) struct JournalEndToEndTests {
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
}

/// The journal's time is the request's arrival, not the moment its reply went (issue 31: a route
/// with a 2 s delay was journaled, shown and exported 2 s late).
@Suite(.tags(.process))
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
