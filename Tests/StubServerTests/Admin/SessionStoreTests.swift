import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The one owner of state, without a socket: a reset means the same whether it comes from the
/// admin API or from `StubdServer`.
@Suite(.tags(.inMemory))
struct SessionStoreTests {
    static func admin() -> SessionStore {
        var step = route("/todo", outcome: ok("[]"))
        step.scenario = ScenarioStep(name: "todo", requiredState: "Started", newState: "Added")
        return SessionStore(fixtures: try! RouteTable(fixtures: [step]))
    }

    @Test func aSessionResetClearsThatSessionsRoutesScenariosAndJournalOnly() throws {
        let admin = Self.admin()
        try admin.add([route("/a", outcome: ok("a"))], session: "t1")
        try admin.add([route("/g", outcome: ok("g"))], session: nil)
        try admin.setScenario("todo", state: "Added", session: "t1")
        try admin.setScenario("todo", state: "Added", session: nil)
        admin.journal.exchangeEnded(RequestJournalTests.exchange("/a", session: "t1"))
        admin.journal.exchangeEnded(RequestJournalTests.exchange("/g"))
        #expect(admin.reset(session: "t1") == 1)
        #expect(admin.routes(session: "t1").map(\.route.id.origin) == [.runtime, .fixture])
        #expect(admin.scenarioState("todo", session: "t1") == "Started")
        #expect(admin.scenarioState("todo", session: nil) == "Added")
        #expect(admin.requests(JournalQuery()).map(\.path) == ["/g"])
        #expect(admin.reset(session: nil) == 1)
        #expect(admin.scenarioState("todo", session: nil) == "Started")
        #expect(admin.health == SessionStore.Health(fixtureRoutes: 1, runtimeRoutes: 0, journalSize: 0, journalCapacity: 1000))
    }

    @Test func scenarioStatesListEveryScenarioARouteNames() throws {
        let admin = Self.admin()
        #expect(admin.scenarioStates(session: nil) == ["todo": "Started"])
        try admin.setScenario("other", state: "X", session: nil)
        #expect(admin.scenarioStates(session: nil) == ["todo": "Started", "other": "X"])
    }

    @Test func replacingFixturesKeepsRuntimeRoutesAndRestartsFixtureSequences() throws {
        let admin = Self.admin()
        try admin.add([route("/r", outcome: ok("r"))], session: nil)
        _ = try admin.scenarios.nextHit(route: RouteID(.fixture, 0), session: nil)
        admin.replaceFixtures(try RouteTable(fixtures: [route("/new", outcome: ok("n"))]))
        #expect(admin.fixtures.routes.map(\.name) == ["GET /new"])
        #expect(admin.health.runtimeRoutes == 1)
        #expect(try admin.scenarios.nextHit(route: RouteID(.fixture, 0), session: nil) == 0)
    }
}
