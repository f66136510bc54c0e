import Foundation
import Synchronization
import Testing
import StubModel
import StubServer
import StubdEngine
import AdminContract
@testable import AdminAPI
import Dashboard
import StubdWebhooks
import StubdTestTags

/// The admin API is one table: every endpoint declared in the contract is served, and documented
/// in the admin reference, and nothing else is; a path parameter never shadows a fixed word; a
/// body that does not read is refused before its handler runs.
@Suite(.tags(.inMemory)) struct AdminRouterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The admin reference's rows: `GET /__stubd/requests` from `| \`GET /__stubd/requests?method=…\` | …`.
    static func documented(in file: String) -> Set<String> {
        let text = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return Set(text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let cell = line[line.index(line.startIndex, offsetBy: 3)..<end]
            guard cell.contains(" /__stubd/") else { return nil }
            return String(cell.prefix { $0 != "?" })
        })
    }

    /// The table a server builds: the standard endpoints, the dashboard's, the webhooks' and the proxy ports'.
    static func router() -> AdminRouter {
        AdminRouter(state: SessionStore(fixtures: .empty),
                    endpoints: AdminService.standard + Dashboard(state: DashboardState()).endpoints + WebhooksAdmin.endpoints(WebhookLog())
                        + ProxyPortsAdmin(proxyHost: nil).endpoints)
    }

    @Test func everyDeclaredEndpointIsServedAndDocumentedAndNothingElse() {
        let declared = Set(AdminContract.all.map(\.description))
        let endpoints = Self.router().endpoints
        let served = Set(endpoints.map(\.description))
        #expect(served.count == endpoints.count, "no endpoint twice")
        #expect(served == declared, "served but not declared: \(served.subtracting(declared).sorted()); declared but not served: \(declared.subtracting(served).sorted())")
        let documented = Self.documented(in: AdminReference.file)
        #expect(!documented.isEmpty, "no rows in \(AdminReference.file)")
        #expect(declared.subtracting(documented).isEmpty, "declared but not in \(AdminReference.file): \(declared.subtracting(documented).sorted())")
        #expect(documented.subtracting(declared).isEmpty, "in \(AdminReference.file) but not declared: \(documented.subtracting(declared).sorted())")
    }

    @Test func fixedWordsWinOverParameters() throws {
        let router = Self.router()
        func served(_ method: String, _ path: String) -> String? {
            router.endpoint(for: IncomingRequest(method: method, target: path))?.endpoint.description
        }
        #expect(served("POST", "/__stubd/scenarios/reset") == "POST /__stubd/scenarios/reset")
        #expect(served("PUT", "/__stubd/scenarios/checkout") == "PUT /__stubd/scenarios/{name}")
        #expect(served("GET", "/__stubd/requests/count") == "GET /__stubd/requests/count")
        #expect(served("GET", "/__stubd/ui/app.js") == "GET /__stubd/ui/app.js")
        #expect(served("GET", "/__stubd/nothing") == nil)
    }

    @Test func anUnknownEndpointIs404ListingTheTable() throws {
        let router = AdminRouter(state: SessionStore(fixtures: .empty), endpoints: AdminService.standard)
        guard case .now(let reply) = router.handle(IncomingRequest(method: "GET", target: "/__stubd/nothing"), session: nil) else {
            Issue.record("answered later")
            return
        }
        #expect(reply.status == 404)
        let text = String(decoding: reply.body, as: UTF8.self)
        for endpoint in AdminService.standard { #expect(text.contains(endpoint.description), "\(endpoint)") }
    }

    /// The table reads the body before the handler runs: a body that does not read is a 400
    /// with the admin API's error shape naming the problem, and the handler is never called.
    @Test func theTableRefusesABadBodyBeforeTheHandler() throws {
        let called = Mutex(0)
        let endpoint = AdminEndpoint(AdminContract.setScenario) { (_, change) throws(AdminRefusal) -> ScenarioSet in
            called.withLock { $0 += 1 }
            return ScenarioSet(name: "x", state: change.state)
        }
        let router = AdminRouter(state: SessionStore(fixtures: .empty), endpoints: [endpoint])
        func call(_ body: String) -> PreparedReply? {
            let request = IncomingRequest(method: "PUT", target: "/__stubd/scenarios/x", body: Array(body.utf8))
            guard case .now(let reply) = router.handle(request, session: nil) else { return nil }
            return reply
        }
        let notJSON = try #require(call("nope"))
        #expect(notJSON.status == 400 && String(decoding: notJSON.body, as: UTF8.self).contains("the body is not JSON"))
        let refused = try #require(call(#"{"state": 2}"#))
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains(#""error": "state: expected a string""#))
        #expect(called.withLock { $0 } == 0)
        let answered = try #require(call(#"{"state": "on"}"#))
        #expect(answered.status == 200 && String(decoding: answered.body, as: UTF8.self).contains(#""x": "on""#))
        #expect(called.withLock { $0 } == 1)
    }
}

/// Where the admin API's reference lives.
enum AdminReference {
    static let file = "docs/ADMIN-API.md"
}
