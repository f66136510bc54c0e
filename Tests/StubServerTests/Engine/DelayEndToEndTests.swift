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

@Suite(.serialized, .tags(.socket)) struct DelayEndToEndTests {
    @Test func aDelayedRouteAnswersNoSoonerThanItsDelay() async throws {
        let server = try TestServer(fixtures: [route("/slow", outcome: ok("late"), delay: 0.4), route("/fast", outcome: ok("now"))])
        defer { server.stop() }
        let start = Date()
        let fetched = await HTTPFetch.get(server.url("/slow"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(fetched.text == "late")
        #expect(elapsed >= 0.4)
        // The server's own measure (arrival to reply), free of the client's start-up time.
        let latency = try #require(server.server.requests(JournalQuery(path: "/slow")).first?.latency)
        #expect(latency >= 0.4)
        #expect(latency < 1.0)
    }

    @Test func aDelayDoesNotBlockOtherRequestsOnTheSameLoop() async throws {
        let probe = ArrivalProbe()
        let server = try TestServer(fixtures: [route("/slow", outcome: ok("late"), delay: 2.0), route("/fast", outcome: ok("now"))],
                                    observers: [probe]) { $0.workers = 1 }
        defer { server.stop() }
        let start = Date()
        async let slow = HTTPFetch.get(server.url("/slow"))
        #expect(await probe.arrival(of: "/slow"))
        // A raw socket, not URLSession: under a loaded CI machine URLSession's own start-up took
        // longer than the delay, which is about the client, not the loop.
        let fast = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)), as: UTF8.self)
        #expect(fast.hasSuffix("\r\n\r\nnow"), "\(fast)")
        // Answered while the slow request was still waiting out its 2 s delay on the same loop.
        #expect(probe.endedCount(of: "/slow") == 0)
        #expect(await slow.text == "late")
        #expect(Date().timeIntervalSince(start) >= 2.0)
    }

    @Test func aThousandConcurrentHalfSecondDelaysFinishTogether() throws {
        let server = try TestServer(fixtures: [route("/delayed", outcome: ok("{}"), delay: 0.5)])
        defer { server.stop() }
        let outcome = RawHTTP.concurrent(count: 1000, port: server.port,
                                         request: "GET /delayed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(outcome.statuses.count == 1000)
        #expect(outcome.statuses.allSatisfy { $0 == 200 })
        #expect(outcome.seconds >= 0.5)
        // Serially this would take 500 s; a few seconds of slack keeps the test about behaviour, not speed.
        #expect(outcome.seconds < 5)
    }
}
