import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The serving decision in memory (no socket), as Hummingbird's `.router` test mode does: the
/// same handler the engine calls, asked directly.
@Suite(.tags(.inMemory))
struct StubHandlerTests {
    static func handler(_ fixtures: [Fixture], cors: CORSPolicy = CORSPolicy(enabled: false)) -> (StubHandler, SessionStore) {
        let admin = SessionStore(fixtures: try! RouteTable(fixtures: fixtures))
        return (StubHandler(admin: admin, cors: cors, feed: ExchangeFeed(observers: [admin.journal])), admin)
    }

    static func status(_ decision: StubHandler.Decided) -> Int? {
        if case .response(let reply) = decision.plan?.content { return reply.status }
        return nil
    }

    @Test func aHitCarriesTheRoutesDelayAndAHeadIsHeadersOnly() {
        let (handler, _) = Self.handler([route("/slow", outcome: ok("x"), delay: 0.25)])
        let decision = handler.decide(IncomingRequest(method: "HEAD", target: "/slow"))
        #expect(Self.status(decision) == 200)
        #expect(decision.plan?.delay == 0.25)
        #expect(decision.plan?.headOnly == true)
        guard case .route(let route) = decision.resolution else { Issue.record("not a hit"); return }
        #expect(route.id == RouteID(.fixture, 0))
        #expect(route.name == "GET /slow")
    }

    @Test func aMissIsA404NamingTheClosestRoute() {
        let (handler, _) = Self.handler([route("/zen", outcome: ok("x"))])
        let decision = handler.decide(IncomingRequest(method: "GET", target: "/zenn"))
        #expect(Self.status(decision) == 404)
        guard case .miss(let closest) = decision.resolution else { Issue.record("not a miss"); return }
        #expect(closest == #"closest: GET /zen (path segment 1: expected "zen", got "zenn")"#)
    }

    @Test func theSessionHeaderSelectsThatSessionsRoutes() throws {
        let (handler, admin) = Self.handler([route("/zen", outcome: ok("fixture"))])
        try admin.add([route("/zen", outcome: ok("mine", status: 500))], session: "t1")
        let mine = handler.decide(IncomingRequest(method: "GET", target: "/zen", headers: [NameValue("x-stubd-session", "t1")]))
        #expect(Self.status(mine) == 500)
        #expect(mine.session == "t1")
        #expect(Self.status(handler.decide(IncomingRequest(method: "GET", target: "/zen"))) == 200)
    }

    @Test func sequencesAdvancePerSession() {
        var flaky = route("/flaky", outcome: ok("x"))
        flaky.outcomes = [ok("a", status: 500), .fault(.reset), ok("ok")]
        let (handler, _) = Self.handler([flaky])
        let answers = (0..<4).map { _ -> String in
            switch handler.decide(IncomingRequest(method: "GET", target: "/flaky")).plan?.content {
            case .response(let reply): return String(reply.status)
            case .stream(let stream): return "stream \(stream.status)"
            case .script(let script): return "script \(script.status)"
            case .fault(let fault, _): return fault.rawValue
            case .upgrade: return "upgrade"
            case .tunnel: return "tunnel"
            case nil: return "not a reply"
            }
        }
        #expect(answers == ["500", "reset", "200", "200"])
    }

    @Test func adminCallsAndPreflightsAreResolvedAsSuch() {
        let (handler, _) = Self.handler([], cors: CORSPolicy(enabled: true))
        let admin = handler.decide(IncomingRequest(method: "GET", target: "/__stubd/health", headers: [NameValue("Host", "127.0.0.1:8080")]))
        guard case .admin = admin.resolution else { Issue.record("not admin"); return }
        #expect(Self.status(admin) == 200)
        let preflight = handler.decide(IncomingRequest(method: "OPTIONS", target: "/x",
                                                       headers: [NameValue("Origin", "http://a"), NameValue("Access-Control-Request-Method", "GET")]))
        guard case .preflight = preflight.resolution else { Issue.record("not a preflight"); return }
    }
}
