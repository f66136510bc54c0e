import Testing
import StubModel
@testable import StubServer

/// Scenario states and sequence positions, per session, without a socket.
struct ScenarioBookTests {
    @Test func aStepAdvancesOnlyFromItsRequiredState() {
        let book = ScenarioBook()
        let add = ScenarioStep(name: "todo", requiredState: "Started", newState: "Added")
        #expect(book.state(of: "todo", session: nil) == "Started")
        #expect(book.advance(add, session: nil))
        #expect(book.state(of: "todo", session: nil) == "Added")
        #expect(!book.advance(add, session: nil))
        #expect(book.state(of: "todo", session: "t1") == "Started")
    }

    @Test func resettingOneSessionKeepsTheGlobalStateAndResettingAllClearsIt() {
        let book = ScenarioBook()
        book.set("s", to: "Global", session: nil)
        book.set("s", to: "Mine", session: "t1")
        book.reset(session: "t1")
        #expect(book.state(of: "s", session: "t1") == "Started")
        #expect(book.state(of: "s", session: nil) == "Global")
        book.reset(session: nil)
        #expect(book.state(of: "s", session: nil) == "Started")
    }

    @Test func sequencePositionsCountPerRouteAndSessionAndFixtureOnesRestartOnReload() {
        let book = ScenarioBook()
        let fixture = RouteID(.fixture, 0)
        let runtime = RouteID(.runtime, 1)
        #expect(book.nextHit(route: fixture, session: nil) == 0)
        #expect(book.nextHit(route: fixture, session: nil) == 1)
        #expect(book.nextHit(route: fixture, session: "t1") == 0)
        #expect(book.nextHit(route: runtime, session: nil) == 0)
        book.resetFixtureHits()
        #expect(book.nextHit(route: fixture, session: nil) == 0)
        #expect(book.nextHit(route: runtime, session: nil) == 1)
    }
}
