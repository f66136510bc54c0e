import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Scenario states and sequence positions, per session, without a socket.
@Suite(.tags(.inMemory))
struct ScenarioBookTests {
    @Test func aStepAdvancesOnlyFromItsRequiredState() throws {
        let book = ScenarioBook()
        let add = ScenarioStep(name: "todo", requiredState: "Started", newState: "Added")
        #expect(book.state(of: "todo", session: nil) == "Started")
        #expect(try book.advance(add, session: nil))
        #expect(book.state(of: "todo", session: nil) == "Added")
        #expect(try !book.advance(add, session: nil))
        #expect(book.state(of: "todo", session: "t1") == "Started")
    }

    @Test func resettingOneSessionKeepsTheGlobalStateAndResettingAllClearsIt() throws {
        let book = ScenarioBook()
        try book.set("s", to: "Global", session: nil)
        try book.set("s", to: "Mine", session: "t1")
        book.reset(session: "t1")
        #expect(book.state(of: "s", session: "t1") == "Started")
        #expect(book.state(of: "s", session: nil) == "Global")
        book.reset(session: nil)
        #expect(book.state(of: "s", session: nil) == "Started")
    }

    @Test func sequencePositionsCountPerRouteAndSessionAndFixtureOnesRestartOnReload() throws {
        let book = ScenarioBook()
        let fixture = RouteID(.fixture, 0)
        let runtime = RouteID(.runtime, 1)
        #expect(try book.nextHit(route: fixture, session: nil) == 0)
        #expect(try book.nextHit(route: fixture, session: nil) == 1)
        #expect(try book.nextHit(route: fixture, session: "t1") == 0)
        #expect(try book.nextHit(route: runtime, session: nil) == 0)
        book.resetFixtureHits()
        #expect(try book.nextHit(route: fixture, session: nil) == 0)
        #expect(try book.nextHit(route: runtime, session: nil) == 1)
    }
}
