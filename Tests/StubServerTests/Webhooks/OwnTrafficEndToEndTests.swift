import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
import StubdSystem
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
@testable import StubdWebhooks
import StubdTestTags

/// What stubd sends itself cannot be turned on stubd (issue 30), over real sockets: a client's
/// webhook depth is never believed, a webhook never reaches the admin API in any spelling of this
/// machine, a URL the request chose reaches stubd's own stubs only when allowed, a request carrying
/// stubd's own mark is refused by the admin API however it arrived, and a forwarded miss that comes
/// back is not forwarded again.
@Suite(.tags(.process))
struct OwnTrafficEndToEndTests {
    static func server(_ routes: String, settings: (inout StubdServer.Configuration) -> Void = { _ in }) throws -> TestServer {
        let fixtures = try FixtureReader(file: "hooks.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
        return try TestServer(fixtures: fixtures, settings: settings)
    }

    /// The journal's requests to `path` once no webhook is under way.
    static func settled(_ server: TestServer, path: String, deliveries: Int) -> Int {
        _ = server.server.webhooks.waitForDeliveries(deliveries, seconds: 10)
        return server.server.admin.journal.entries(matching: JournalQuery(path: path)).count
    }

    @Test(arguments: ["-20", "-1000", "-9223372036854775808", "0", "4", "99999999999999999999", "1; proof=x"])
    func aClientsDepthHeaderNeitherLengthensNorShortensAChain(claimed: String) throws {
        let server = try Self.server("""
            {"name": "loop", "request": {"method": "POST", "path": "/loop"}, "response": {"status": 200},
             "webhooks": [{"url": "http://{{request.headers.Host}}/loop"}]}
            """, settings: { $0.webhookAllowed = ["127.0.0.1"] })
        defer { server.stop() }
        _ = try Curl.run(["-X", "POST", "-H", "X-Stubd-Webhook-Depth: \(claimed)", server.url("/loop")])
        // The client's request and exactly five hops, whatever it claimed: the fifth delivery ends
        // once its request (at depth 5, which sends none) is answered, so the count is final then.
        #expect(Self.settled(server, path: "/loop", deliveries: WebhookDelivery.maxDepth) == WebhookDelivery.maxDepth + 1)
        #expect(server.server.webhooks.entries(session: nil).count == WebhookDelivery.maxDepth)
    }

    @Test(arguments: ["127.0.0.1", "localhost", "[::1]", "127.1", "0.0.0.0", "LocalHost.", "[::ffff:127.0.0.1]", "0x7f.0.0.1"])
    func aCallbackURLNeverReachesTheAdminAPI(host: String) throws {
        let server = try Self.server("""
            {"name": "order", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 202},
             "webhooks": [{"url": "{{jsonPath request.body '$.callback'}}", "headers": {"Content-Type": "application/json"},
                           "text": "{\\"request\\": {\\"method\\": \\"GET\\", \\"path\\": \\"/planted\\"}, \\"response\\": {\\"text\\": \\"pwned\\"}}"}]}
            """)
        defer { server.stop() }
        for path in ["/__stubd/routes", "/__stubd/reset", "/__stubd/ui"] {
            let body = #"{"callback": "http://\#(host):\#(server.port)\#(path)"}"#
            _ = try Curl.run(["-X", "POST", "-H", "Content-Type: text/plain", "--data", body, server.url("/orders")])
        }
        #expect(server.server.webhooks.waitForDeliveries(3))
        let entries = server.server.webhooks.entries(session: nil)
        #expect(entries.count == 3)
        for entry in entries {
            #expect(entry.attempts == 0 && (entry.error ?? "").contains("stubd's own admin API"), "\(entry)")
        }
        #expect(server.server.admin.routes(session: nil).allSatisfy { $0.route.fixture.request.path.description != "/planted" })
        #expect(try Curl.run([server.url("/planted")]).stdout.contains("no stub matches"))
    }

    @Test func aURLTheRequestChoseReachesStubdsOwnStubsOnlyWhenAllowed() throws {
        let routes = """
            {"name": "order", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 202},
             "webhooks": [{"url": "{{jsonPath request.body '$.callback'}}"}]},
            {"name": "hook", "request": {"method": "POST", "path": "/hook"}, "response": {"status": 204}}
            """
        let refused = try Self.server(routes)
        defer { refused.stop() }
        _ = try Curl.run(["-X", "POST", "--data", #"{"callback": "http://127.0.0.1:\#(refused.port)/hook"}"#, refused.url("/orders")])
        #expect(refused.server.webhooks.waitForDeliveries(1))
        let entry = try #require(refused.server.webhooks.entries(session: nil).first)
        #expect(entry.attempts == 0 && (entry.error ?? "").contains("--webhook-allow 127.0.0.1:\(refused.port)"), "\(entry)")
        #expect(refused.server.admin.journal.entries(matching: JournalQuery(path: "/hook")).isEmpty)

        let allowed = try Self.server(routes, settings: { $0.webhookAllowed = ["127.0.0.1"] })
        defer { allowed.stop() }
        _ = try Curl.run(["-X", "POST", "--data", #"{"callback": "http://127.0.0.1:\#(allowed.port)/hook"}"#, allowed.url("/orders")])
        #expect(allowed.server.webhooks.waitForDeliveries(1))
        #expect(allowed.server.webhooks.entries(session: nil).first?.status == 204)
    }

    @Test func aConstantURLNamingStubdItselfIsTheFixturesOwnChoice() throws {
        // The port is only known once the server runs: the route is added then, with its URL constant.
        let server = try TestServer(fixtures: [])
        defer { server.stop() }
        let fixtures = try FixtureReader(file: "hooks.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("""
            {"routes": [{"name": "order", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 202},
                         "webhooks": [{"url": "http://127.0.0.1:\(server.port)/hook/{{request.headers.X-Id}}"}]},
                        {"name": "hook", "request": {"method": "POST", "pathTemplate": "/hook/{id}"}, "response": {"status": 204}}]}
            """.utf8))
        try server.server.add(fixtures)
        // A value inserted into the path is one segment: `%3F` stays in the path, it adds no query.
        _ = try Curl.run(["-X", "POST", "-H", "X-Id: a?admin=1/../x", server.url("/orders")])
        #expect(server.server.webhooks.waitForDeliveries(1))
        #expect(server.server.webhooks.entries(session: nil).first?.status == 204)
        let hook = try #require(server.server.admin.journal.entries(matching: JournalQuery(path: "/hook/*")).first)
        #expect(hook.url == "/hook/a%3Fadmin%3D1%2F..%2Fx", "\(hook.url)")
    }

    @Test func aMissForwardedToStubdItselfIsNotForwardedAgain() throws {
        let server = try TestServer(fixtures: [])
        defer { server.stop() }
        let upstream = try ProxyUpstream(url: "http://127.0.0.1:\(server.port)")
        try server.server.admin.forwarding.startRecording(Forwarding.Target(upstream: upstream))
        let answer = try Curl.run(["-i", server.url("/anything")])
        #expect(answer.stdout.hasPrefix("HTTP/1.1 508"), "\(answer.stdout)")
        #expect(answer.stdout.contains("came back to it"))
        // Once sent, once come back: two requests, not a loop.
        #expect(server.server.admin.journal.entries(matching: JournalQuery(path: "/anything")).count == 2)
    }

    @Test func thisMachineIsRecognisedInEverySpelling() {
        for host in ["localhost", "LOCALHOST.", "app.localhost", "127.0.0.1", "127.1", "0x7f.1", "2130706433", "0.0.0.0", "0",
                     "::1", "[::1]", "::", "::ffff:127.0.0.1", "[::ffff:7f00:1]"] + (System.hostName().map { [$0] } ?? []) {
            #expect(System.isThisMachine(host), "\(host)")
        }
        for host in ["example.com", "127.0.0.1.nip.io", "localhost.example", "10.255.255.1", "8.8.8.8", "deadbeef"] {
            #expect(!System.isThisMachine(host), "\(host)")
        }
    }
}
