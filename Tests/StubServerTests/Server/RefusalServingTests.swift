import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubServer
import StubdEngine
import StubdTestTags
import StubdRuntime
import StubdWebhooks

/// Who stubd refuses, decided on a stubd served in memory: a request carrying stubd's own mark
/// at the admin API, a page of another origin asking for a forwarded miss, an origin not listed
/// for CORS; and how a webhook's 5xx, refused connection and unusable URL end in the log.
@Suite(.tags(.socket)) struct RefusalServingTests {
    static let zen = #"{"routes": [{"request": {"method": "GET", "path": "/local"}, "response": {"text": "stub"}}]}"#

    @Test func theAdminAPIRefusesARequestCarryingStubdsOwnMark() throws {
        let stubd = try InMemoryStubd(Self.zen)
        defer { stubd.stop() }
        let marked = try #require(stubd.get("/__stubd/routes", headers: [("X-Stubd-Webhook-Depth", stubd.server.own.depthValue(1))]))
        #expect(marked.status == 403 && marked.text.contains("a request stubd sent itself"))
        let forwarded = try #require(stubd.send("POST", "/__stubd/reset", headers: [("Via", "1.1 proxy, \(stubd.server.own.via)")]))
        #expect(forwarded.status == 403)
        // A claimed depth without the proof is an ordinary request.
        #expect(try #require(stubd.get("/__stubd/routes", headers: [("X-Stubd-Webhook-Depth", "1")])).status == 200)
    }

    /// A page on another origin cannot use stubd as a CORS proxy into the upstream (nor plant
    /// recordings): its miss is refused before forwarding, without CORS headers. Pages served from
    /// this machine and origins named with `--cors-origin` are forwarded, with CORS for that origin.
    @Test func pagesFromOtherOriginsAreNotForwarded() throws {
        let created: @Sendable (UpstreamRequest) -> UpstreamResponse = { _ in .answered(status: 201, headers: [], body: Array("created".utf8)) }
        let stubd = try InMemoryStubd(Self.zen, upstream: created, settings: { $0.proxy = try? ProxyUpstream(url: "http://api.example.test/api/") })
        defer { stubd.stop() }
        for origin in ["http://evil.example", "null", "http://127.0.0.1.evil.example:8080", "https://localhost.evil.example"] {
            let refused = try #require(stubd.get("/up", headers: [("Origin", origin)]))
            #expect(refused.status == 403, "\(origin)")
            #expect(refused.text.contains("--cors-origin \(origin)"))
            #expect(refused.header("Access-Control-Allow-Origin") == nil, "\(origin)")
        }
        #expect(stubd.network.calls.isEmpty, "nothing reached the upstream")
        // Stubs still answer every page, as before.
        #expect(try #require(stubd.get("/local", headers: [("Origin", "http://evil.example")])).text == "stub")
        for origin in ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080"] {
            let forwarded = try #require(stubd.get("/up", headers: [("Origin", origin)]))
            #expect(forwarded.status == 201 && forwarded.header("Access-Control-Allow-Origin") == origin, "\(origin)")
        }
        let listed = try InMemoryStubd(#"{"routes": []}"#, upstream: created, settings: {
            $0.proxy = try? ProxyUpstream(url: "http://api.example.test/api/")
            $0.cors = CORSPolicy(enabled: true, allowedOrigins: ["https://app.example"])
        })
        defer { listed.stop() }
        let named = try #require(listed.get("/up", headers: [("Origin", "https://app.example")]))
        #expect(named.status == 201 && named.header("Access-Control-Allow-Origin") == "https://app.example")
    }

    @Test func originsCanBeListedOrCORSSwitchedOff() throws {
        let listed = try InMemoryStubd(Self.zen, settings: { $0.cors = CORSPolicy(enabled: true, allowedOrigins: ["https://app.example"]) })
        defer { listed.stop() }
        #expect(try #require(listed.get("/local", headers: [("Origin", "https://app.example")])).header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(try #require(listed.get("/local", headers: [("Origin", "https://evil.example")])).headers.allSatisfy { !$0.name.hasPrefix("Access-Control") })
        let off = try InMemoryStubd(Self.zen, settings: { $0.cors = CORSPolicy(enabled: false) })
        defer { off.stop() }
        let preflight = try #require(off.send("OPTIONS", "/local", headers: [("Origin", "http://localhost"), ("Access-Control-Request-Method", "GET")]))
        #expect(preflight.status == 404)
        #expect(preflight.headers.allSatisfy { !$0.name.hasPrefix("Access-Control") })
    }

    /// A 5xx is retried until a 2xx; a refused connection is retried and given up; a URL that is
    /// not http(s) is never sent. Each ends in the log with its attempts.
    @Test func aWebhooks5xxIsRetriedAndGivingUpIsRecorded() throws {
        let first = SendableFlag()
        let stubd = try InMemoryStubd(#"""
            {"routes": [
              {"request": {"method": "GET", "path": "/a"}, "response": {"status": 200},
               "webhooks": [{"url": "http://127.0.0.1:9000/a", "retries": 2, "retryDelay": 0.05}]},
              {"request": {"method": "GET", "path": "/b"}, "response": {"status": 200},
               "webhooks": [{"url": "http://127.0.0.1:9001/b", "retries": 1, "retryDelay": 0.05}]},
              {"request": {"method": "GET", "path": "/c", "anyOtherQuery": true}, "response": {"status": 200},
               "webhooks": [{"url": "{{request.query.to}}"}]}
            ]}
            """#, upstream: { request in
                if request.port == 9001 { return .failed("connection refused") }
                return first.take() ? .answered(status: 503, headers: [], body: []) : .answered(status: 204, headers: [], body: [])
            })
        defer { stubd.stop() }
        _ = stubd.get("/a")
        _ = stubd.get("/b")
        _ = stubd.get("/c?to=ftp://nowhere")
        let entries = stubd.server.webhooks.entries(session: nil)
        let a = try #require(entries.first { $0.url.hasSuffix("/a") })
        #expect(a.status == 204 && a.attempts == 2, "503 then 204: \(a)")
        let b = try #require(entries.first { $0.url.hasSuffix("/b") })
        #expect(b.status == nil && b.attempts == 2 && b.error != nil, "refused twice, then given up: \(b)")
        let c = try #require(entries.first { $0.url.hasPrefix("ftp:") })
        #expect(c.attempts == 0 && (c.error ?? "").contains("http:// or https://"), "\(c)")
        #expect(stubd.network.calls.count == 4, "two to /a, two to /b, none for ftp")
    }
}

/// True the first time it is taken, false after.
final class SendableFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var taken = false

    func take() -> Bool {
        lock.withLock {
            defer { taken = true }
            return !taken
        }
    }
}
