import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
@testable import StubdTemplates
@testable import StubdWebhooks
import StubdTestTags

/// Webhooks sent by a route over real sockets to a Python http.server receiver: the templated
/// request arrives after the answer, a refused connection is retried until the receiver is up,
/// a 5xx is retried, a webhook pointed at stubd itself stops after `maxDepth` hops, and every
/// delivery is listed by `GET /__stubd/webhooks`.
@Suite(.tags(.process)) struct WebhookEndToEndTests {
    /// Appends each request it receives to received.jsonl and answers 204 (503 for the first
    /// `failFirst` requests).
    static func receiver(port: Int = 0, failFirst: Int = 0) throws -> PythonUpstream {
        try PythonUpstream(handler: """
                failures = [\(failFirst)]
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    with open("received.jsonl", "ab") as out:
                        out.write(json.dumps({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                              "body": body.decode()}).encode() + b"\\n")
                    status = 204
                    if Handler.failures[0] > 0:
                        Handler.failures[0] -= 1
                        status = 503
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                do_PUT = do_POST
            """, tls: false, port: port)
    }

    static func received(_ upstream: PythonUpstream) -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: upstream.folder.appendingPathComponent("received.jsonl").path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func server(_ routes: String) throws -> TestServer {
        let fixtures = try FixtureReader(file: "hooks.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
        return try TestServer(fixtures: fixtures)
    }

    @Test func theTemplatedRequestArrivesAfterTheAnswerAndIsListed() throws {
        let receiver = try Self.receiver()
        defer { receiver.stop() }
        let server = try Self.server("""
            {"name": "pay", "request": {"method": "POST", "pathTemplate": "/payments/{id}"},
             "response": {"status": 202, "json": {"state": "pending"}},
             "webhooks": [{"url": "http://127.0.0.1:\(receiver.port)/hooks/{{request.path.id}}?token=s3cret&kind=payment",
                           "headers": {"Content-Type": "application/json", "X-Order": "{{jsonPath request.body '$.order'}}"},
                           "json": {"id": "{{request.path.id}}", "order": "{{jsonPath request.body '$.order'}}", "state": "paid",
                                    "note": "{{request.headers.X-Note}}"}}]}
            """)
        defer { server.stop() }
        let answer = try Curl.run(["-X", "POST", "-H", "X-Stubd-Session: s1", "-H", "X-Note: a \"quoted\" note",
                                   "--data", #"{"order": "o-9"}"#, "-w", "%{http_code}", server.url("/payments/p-1")])
        #expect(answer.stdout.hasSuffix("202"))
        // The receiver writes each request down before it answers, so once stubd has its answer
        // the request is on file.
        #expect(server.server.webhooks.waitForDeliveries(1))
        #expect(Self.received(receiver).count == 1)
        let hook = try #require(Self.received(receiver).first)
        #expect(hook["method"] as? String == "POST")
        #expect(hook["path"] as? String == "/hooks/p-1?token=s3cret&kind=payment")
        let headers = try #require(hook["headers"] as? [String: String])
        #expect(headers["X-Order"] == "o-9")
        // The depth, with this server's proof that it issued it (`OwnTraffic`).
        #expect(headers["X-Stubd-Webhook-Depth"]?.hasPrefix("1; proof=") == true)
        #expect(headers["Host"] == "127.0.0.1:\(receiver.port)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data((hook["body"] as? String ?? "").utf8)) as? [String: String])
        #expect(body == ["id": "p-1", "order": "o-9", "state": "paid", "note": "a \"quoted\" note"])
        // Listed for its session, with the secret query value redacted as the journal redacts it.
        let listed = try Curl.run(["-H", "X-Stubd-Session: s1", server.url("/__stubd/webhooks")]).stdout
        #expect(listed.contains("\"status\":204") || listed.contains("\"status\": 204"), "\(listed)")
        #expect(listed.contains("/hooks/p-1?token=") && !listed.contains("s3cret"), "\(listed)")
        let other = try Curl.run(["-H", "X-Stubd-Session: s2", server.url("/__stubd/webhooks")]).stdout
        #expect(!other.contains("/hooks/"), "another session's deliveries are not listed: \(other)")
    }

    @Test func aRefusedConnectionIsRetriedUntilTheReceiverListens() throws {
        let free = try TestServer(fixtures: []).stoppedPort()
        let server = try Self.server("""
            {"request": {"method": "PUT", "path": "/jobs/1"}, "response": {"status": 200},
             "webhooks": [{"method": "PUT", "url": "http://127.0.0.1:\(free)/done", "text": "job {{request.path.[1]}} done",
                           "retries": 8, "retryDelay": "400ms"}]}
            """)
        defer { server.stop() }
        _ = try Curl.run(["-X", "PUT", server.url("/jobs/1")])
        // The first attempt (no delay) leaves on the loop's next turn, before Python has even
        // started: it meets a closed port; the receiver comes up only now.
        let receiver = try Self.receiver(port: free)
        defer { receiver.stop() }
        #expect(server.server.webhooks.waitForDeliveries(1))
        #expect(Self.received(receiver).count == 1)
        #expect(Self.received(receiver).first?["body"] as? String == "job 1 done")
        let entry = try #require(server.server.webhooks.entries(session: nil).first)
        #expect(entry.status == 204)
        #expect(entry.attempts >= 2, "the refused attempt came first")
    }

    @Test func aWebhookThatCallsItsOwnRouteStopsAfterTheDepthLimit() throws {
        // The route's port is known only once the server runs, so the hook reads it from the
        // request — a URL the request chose, allowed to reach stubd itself by --webhook-allow.
        let fixtures = try FixtureReader(file: "hooks.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("""
            {"routes": [{"name": "echo", "request": {"method": "POST", "path": "/loop"}, "response": {"status": 200},
             "webhooks": [{"url": "http://{{request.headers.Host}}/loop"}]}]}
            """.utf8))
        let server = try TestServer(fixtures: fixtures, settings: { $0.webhookAllowed = ["127.0.0.1"] })
        defer { server.stop() }
        _ = try Curl.run(["-X", "POST", server.url("/loop")])
        // The fifth delivery ends when its request (the sixth, at depth 5) has been answered, and
        // that request sent none: once five have ended, nothing more is under way.
        #expect(server.server.webhooks.waitForDeliveries(WebhookDelivery.maxDepth))
        #expect(server.server.admin.journal.entries(matching: JournalQuery(path: "/loop")).count == WebhookDelivery.maxDepth + 1)
        let last = try #require(server.server.admin.journal.entries(matching: JournalQuery(path: "/loop")).last)
        let depth = try #require(last.headers.first { $0.name == "X-Stubd-Webhook-Depth" }?.value)
        #expect(depth.hasPrefix("\(WebhookDelivery.maxDepth); proof="), "\(depth)")
        // A request that deep by stubd's own proof renders no webhook (what keeps a seventh from
        // ever leaving); the same depth claimed by a client, without the proof, is depth 0.
        let route = try #require(server.server.admin.routes(session: nil).first?.route)
        let own = server.server.own
        let deep = IncomingRequest(method: "POST", target: "/loop", headers: [NameValue("Host", "127.0.0.1:1"),
                                                                          NameValue("X-Stubd-Webhook-Depth", own.depthValue(WebhookDelivery.maxDepth))])
        #expect(WebhookDelivery.render(route, request: deep, session: nil, state: TemplateState(), collections: server.server.admin, own: own).isEmpty)
        for claimed in [String(WebhookDelivery.maxDepth), "-1000", "-9223372036854775808", "5; proof=00000000000000000000000000000000"] {
            let forged = IncomingRequest(method: "POST", target: "/loop", headers: [NameValue("Host", "127.0.0.1:1"), NameValue("X-Stubd-Webhook-Depth", claimed)])
            #expect(own.webhookDepth(of: forged) == 0, "\(claimed)")
            #expect(WebhookDelivery.render(route, request: forged, session: nil, state: TemplateState(), collections: server.server.admin, own: own).count == 1)
        }
    }
}
