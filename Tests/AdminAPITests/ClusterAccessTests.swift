import Testing
import StubModel
import StubServer
import StubdEngine
import AdminContract
@testable import AdminAPI
import Dashboard
import StubdTestTags

/// What several instances behind a load balancer rely on: probes reach `ready` without the
/// token (and nothing else opens that way), and `--sessions-only` refuses a write that would change
/// one instance only.
@Suite(.tags(.inMemory)) struct ClusterAccessTests {
    @Test func onlyReadyIsOpenToCallersWithoutAccess() {
        let router = AdminRouter(state: SessionStore(fixtures: .empty), endpoints: AdminService.standard + Dashboard(state: DashboardState()).endpoints)
        let open = router.endpoints.filter(\.isOpen).map(\.description)
        #expect(open == ["GET /__stubd/ready"])
    }

    @Test func readyAnswersEvenWhenTheAdminAPIIsOff() throws {
        let state = SessionStore(fixtures: .empty)
        let service = AdminService(state: state, access: AdminAccess(host: "0.0.0.0"))
        let ready = Exchange(request: IncomingRequest(method: "GET", target: "/__stubd/ready", headers: [NameValue("Host", "10.0.0.5:8080")]), feed: nil, reply: nil)
        guard case .reply(let plan) = service.decide(ready), case .response(let reply) = plan.content else {
            Issue.record("ready was not answered at once")
            return
        }
        #expect(reply.status == 200)
        #expect(String(decoding: reply.body, as: UTF8.self).contains("\"ready\""))
        let health = Exchange(request: IncomingRequest(method: "GET", target: "/__stubd/health", headers: [NameValue("Host", "10.0.0.5:8080")]), feed: nil, reply: nil)
        guard case .reply(let refused) = service.decide(health), case .response(let refusal) = refused.content else {
            Issue.record("health was not answered at once")
            return
        }
        #expect(refusal.status == 403, "health still needs the token on a non-loopback bind")
    }

    @Test func sessionsOnlyRefusesWritesWithoutASession() throws {
        var access = AdminAccess(host: "0.0.0.0", token: "t")
        access.sessionsOnly = true
        let write = IncomingRequest(method: "POST", target: "/__stubd/routes", headers: [NameValue("Authorization", "Bearer t")])
        let refusal = try #require(access.sessionRefusal(for: write, session: nil))
        #expect(refusal.status == 409)
        let text = String(decoding: refusal.body, as: UTF8.self)
        #expect(text.contains("--sessions-only") && text.contains("X-Stubd-Session"))
        #expect(access.sessionRefusal(for: write, session: SessionID("t1")) == nil)
        #expect(access.sessionRefusal(for: IncomingRequest(method: "GET", target: "/__stubd/requests"), session: nil) == nil)
        access.sessionsOnly = false
        #expect(access.sessionRefusal(for: write, session: nil) == nil)
    }
}
