import Foundation
import Synchronization
import Testing
import StubdTestSupport
import StubModel
import StubServer
import StubdEngine
import StubdRuntime
import StubdTestTags

/// A whole stubd on the in-memory engine: the handler, the admin API, the journal and the
/// observers run as under libevent, with requests and replies as values and the calls stubd makes
/// itself answered by an in-memory upstream — a hit, a miss, a templated answer, a forwarded miss,
/// a webhook and its retries, an admin change answered later, a stream.
@Suite(.tags(.socket)) struct InMemoryServingTests {
    static let fixtures = #"""
    {"routes": [
      {"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}},
      {"name": "user", "request": {"method": "GET", "pathTemplate": "/users/{login}"},
       "response": {"template": true, "json": {"login": "{{request.path.login}}", "agent": "{{request.headers.User-Agent}}"}}},
      {"name": "slow", "request": {"method": "GET", "path": "/slow"}, "response": {"text": "late"}, "delay": 2},
      {"name": "pay", "request": {"method": "POST", "pathTemplate": "/payments/{id}"},
       "response": {"status": 202, "json": {"state": "pending"}},
       "webhooks": [{"url": "http://127.0.0.1:9000/hooks/{{request.path.id}}", "json": {"id": "{{request.path.id}}"},
                     "delay": 0.5, "retries": 2, "retryDelay": 1}]}
    ]}
    """#

    @Test func aHitAMissAndATemplatedAnswer() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let zen = try #require(stubd.get("/zen"))
        #expect(zen.status == 200 && zen.text == "Design for failure.")
        #expect(zen.header("Content-Type") == "text/plain; charset=utf-8" && zen.header("X-Content-Type-Options") == "nosniff")
        #expect(zen.header("Content-Length") == "19")
        let miss = try #require(stubd.get("/zen/x"))
        #expect(miss.status == 404 && miss.text.contains(#""name": "zen""#), "\(miss.text)")
        let user = try #require(stubd.get("/users/octocat", headers: [("User-Agent", "okhttp/4.12")]))
        #expect(user.status == 200 && user.text.contains(#""login":"octocat""#) && user.text.contains(#""agent":"okhttp/4.12""#), "\(user.text)")
        let head = try #require(stubd.send("HEAD", "/zen"))
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "19")
        #expect(stubd.server.count() == 4)
    }

    /// Time is virtual: a 2 s delay is reported, not waited out, and the journal's time is the
    /// arrival's.
    @Test func aDelayIsReportedAndTheJournalKeepsTheArrivalTime() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let before = Date()
        let slow = try #require(stubd.get("/slow"))
        #expect(slow.delay == 2 && slow.text == "late")
        #expect(Date().timeIntervalSince(before) < 1.5, "the delay was waited out")
        let entry = try #require(stubd.server.requests().last)
        #expect(abs(entry.time.timeIntervalSince(before)) < 1, "journal time \(entry.time) vs arrival \(before)")
    }

    /// A miss forwarded to the in-memory upstream: the upstream sees the request with stubd's
    /// `Via`, the client gets the upstream's answer, the journal says it was forwarded.
    @Test func aMissIsForwardedToTheUpstream() throws {
        let stubd = try InMemoryStubd(Self.fixtures, upstream: { request in
            .answered(status: 201, headers: [NameValue("Content-Type", "application/json")], body: Array(#"{"from":"upstream"}"#.utf8))
        }, settings: { $0.proxy = try? ProxyUpstream(url: "http://api.example.test") })
        defer { stubd.stop() }
        let reply = try #require(stubd.send("POST", "/orders?x=1", headers: [("Content-Type", "application/json")], body: #"{"a":1}"#))
        #expect(reply.status == 201 && reply.text == #"{"from":"upstream"}"#)
        let call = try #require(stubd.network.calls.first)
        #expect(call.kind == .fetch && call.request.method == "POST")
        #expect(call.request.host == "api.example.test" && call.request.port == 80 && call.request.target == "/orders?x=1", "\(call.request.target)")
        #expect(call.request.headers.contains { $0.name == "Via" && $0.value.hasPrefix("1.1 stubd-") })
        #expect(String(decoding: call.request.body, as: UTF8.self) == #"{"a":1}"#)
        let hit = try #require(stubd.get("/zen"))
        #expect(hit.status == 200, "a hit is still answered by its route")
        #expect(stubd.network.calls.count == 1)
    }

    /// An upstream that cannot be reached: a 502 naming it, as over sockets.
    @Test func anUnreachableUpstreamIsA502() throws {
        let stubd = try InMemoryStubd(Self.fixtures, settings: { $0.proxy = try? ProxyUpstream(url: "http://api.example.test") })
        defer { stubd.stop() }
        let reply = try #require(stubd.get("/nothing"))
        #expect(reply.status == 502 && reply.text.contains("api.example.test"), "\(reply.text)")
    }

    /// A webhook leaves after the answer, with its delay, and is retried after a 5xx; every
    /// attempt is a call, the last one answered 204; the webhook log has it.
    @Test func aWebhookIsSentAfterTheAnswerAndRetried() throws {
        let attempts = Mutex(0)
        let stubd = try InMemoryStubd(Self.fixtures, upstream: { request in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return attempt < 3 ? .answered(status: 503, headers: [], body: []) : .answered(status: 204, headers: [], body: [])
        })
        defer { stubd.stop() }
        let reply = try #require(stubd.send("POST", "/payments/p-1", headers: [("Content-Type", "application/json")], body: "{}"))
        #expect(reply.status == 202)
        let calls = stubd.network.calls
        #expect(calls.map(\.kind) == [.send, .send, .send])
        #expect(calls.map(\.delay) == [0.5, 1, 1])
        #expect(calls.allSatisfy { $0.request.host == "127.0.0.1" && $0.request.port == 9000 && $0.request.target == "/hooks/p-1" })
        #expect(String(decoding: calls[0].request.body, as: UTF8.self).contains(#""id":"p-1""#))
        #expect(calls[0].request.headers.contains { $0.name == "X-Stubd-Webhook-Depth" && $0.value.hasPrefix("1; proof=") })
        let log = try #require(stubd.get("/__stubd/webhooks"))
        #expect(log.text.contains(#""status": 204"#) && log.text.contains(#""attempts": 3"#), "\(log.text)")
    }

    /// A route added through the admin API is applied on the admin's queue and answered later;
    /// the in-memory engine waits for that completion, and the route serves at once after.
    @Test func anAdminChangeAnsweredLaterThenServed() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let added = try #require(stubd.send("POST", "/__stubd/routes", headers: [("Content-Type", "application/json")],
                                           body: #"{"request": {"method": "GET", "path": "/zen"}, "response": {"status": 503, "text": "down"}}"#))
        #expect(added.status == 201 && added.text.contains(#""r1""#), "\(added.text)")
        let zen = try #require(stubd.get("/zen"))
        #expect(zen.status == 503 && zen.text == "down")
        #expect(try #require(stubd.send("POST", "/__stubd/reset")).status == 200)
        #expect(try #require(stubd.get("/zen")).status == 200)
    }

    /// The dashboard's event stream in memory: the head, then one event per journaled request,
    /// as they happen; the client leaving ends it.
    @Test func theEventStreamCarriesEachExchange() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let events = try #require(stubd.get("/__stubd/events", headers: [("Accept", "text/event-stream")]))
        #expect(events.status == 200 && events.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        let stream = try #require(events.stream)
        _ = stubd.get("/zen")
        #expect(stream.wait(for: #""path":"/zen""#) || stream.wait(for: #""path": "/zen""#), "\(String(decoding: stream.body, as: UTF8.self))")
        stream.close()
    }

    /// A framing the engine refuses is refused in memory too, before the handler.
    @Test func aTransferCodingOtherThanChunkedIs501() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let reply = try #require(stubd.send("POST", "/zen", headers: [("Transfer-Encoding", "gzip, chunked")]))
        #expect(reply.status == 501 && reply.header("Connection") == "close")
        #expect(stubd.server.count() == 0)
    }

    /// A no-byte step goes as a response to every client alike — a browser, curl, Java — and each
    /// request takes one step; a route without steps keeps its authored reset.
    @Test func aNoByteStepGoesAsAResponseToEveryClient() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [
          {"name": "steps", "request": {"method": "GET", "path": "/steps"}, "responses": [{"fault": "reset"}, {"fault": "empty"}, {"fault": "hang"}, {"text": "ok"}]},
          {"name": "down", "request": {"method": "GET", "path": "/down"}, "fault": "reset"}
        ]}
        """#)
        defer { stubd.stop() }
        let browser = [("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0"), ("Sec-Fetch-Mode", "cors")]
        let first = try #require(stubd.get("/steps", headers: browser))
        #expect(first.fault == .reset && first.faultSentAsResponse)
        let second = try #require(stubd.get("/steps", headers: [("User-Agent", "curl/8.5.0")]))
        #expect(second.fault == .empty && second.faultSentAsResponse)
        let third = try #require(stubd.get("/steps", headers: [("User-Agent", "Java-http-client/17.0.15")]))
        #expect(third.fault == .hang && third.faultSentAsResponse)
        #expect(try #require(stubd.get("/steps", headers: browser)).text == "ok")
        let plain = try #require(stubd.get("/down", headers: browser))
        #expect(plain.fault == .reset && !plain.faultSentAsResponse)
    }
}
