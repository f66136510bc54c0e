import Foundation
import Synchronization
import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Observers that join a running server see each exchange with its response, and stop seeing
/// them when they leave.
@Suite(.tags(.process)) struct LiveObserverEndToEndTests {
    /// Keeps what it is sent.
    final class Collector: ExchangeObserver {
        let seen = Mutex<[(path: String, status: Int?, headers: [NameValue], body: [UInt8], fault: Bool)]>([])
        func exchangeEnded(_ exchange: Exchange) {
            let response = exchange.response
            let fault: Bool
            if case .fault = exchange.outcome { fault = true } else { fault = false }
            seen.withLock { $0.append((exchange.request.rawPath, response?.status, response?.headers ?? [], response?.body() ?? [], fault)) }
        }
        var count: Int { seen.withLock { $0.count } }
    }

    @Test func anObserverAddedWhileServingSeesResponsesUntilItLeaves() throws {
        let server = try TestServer(fixtures: [
            route("/zen", outcome: ok("Design for failure.", headers: [NameValue("X-Kind", "zen")])),
            route("/reset", outcome: .fault(.reset)),
        ]) { $0.workers = 1 }  // one loop: exchanges are emitted in the order they were served
        defer { server.stop() }
        _ = try Curl.run([server.url("/zen")])
        let collector = Collector()
        let subscription = server.server.subscribe(collector)
        _ = try Curl.run(["-H", "Origin: http://page.test", server.url("/zen")])
        _ = try Curl.run(["-I", server.url("/zen")])
        _ = try Curl.run([server.url("/reset")])
        _ = try Curl.run([server.url("/nowhere")])
        // One loop emits in order: once the witness below has seen its exchange, every earlier
        // one has been emitted to the collector.
        server.server.unsubscribe(subscription)
        // After leaving: a second observer, subscribed now, sees the next exchange; the feed calls
        // observers in one pass, so had the first still been subscribed it would have seen it too.
        let witness = Collector()
        server.server.subscribe(witness)
        _ = try Curl.run([server.url("/zen")])
        #expect(witness.count == 1, "the exchange is emitted before its reply leaves the loop")
        let seen = collector.seen.withLock { $0 }
        try #require(seen.count == 4, "the request before subscribing and the one after leaving are not seen: \(seen.map(\.path))")
        #expect(seen[0].status == 200 && String(decoding: seen[0].body, as: UTF8.self) == "Design for failure.")
        #expect(seen[0].headers.contains(NameValue("X-Kind", "zen")))
        #expect(seen[0].headers.contains(NameValue("Access-Control-Allow-Origin", "http://page.test")), "headers added on the way are there too")
        #expect(seen[1].status == 200 && seen[1].body.isEmpty, "HEAD: no body was sent")
        #expect(seen[2].status == nil && seen[2].fault, "a fault sends no response")
        #expect(seen[3].status == 404 && String(decoding: seen[3].body, as: UTF8.self).contains("no stub matches GET /nowhere"))
    }
}
