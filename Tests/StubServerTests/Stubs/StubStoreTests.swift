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

/// The store without a socket: every change publishes a new snapshot, failures change nothing,
/// and sessions see their own layer first.
@Suite(.tags(.inMemory))
struct StubStoreTests {
    static let fixtures = try! RouteTable(fixtures: [route("/zen", outcome: ok("fixture"))])

    static func answer(_ snapshot: StubSnapshot, _ path: String, session: SessionID? = nil) -> String? {
        guard case .hit(let route) = snapshot.lookup(IncomingRequest(method: "GET", target: path), session: session, accept: nil),
              case .prepared(let reply) = route.outcome(forHit: 0) else { return nil }
        return String(decoding: reply.body, as: UTF8.self)
    }

    @Test func aRuntimeRouteOverridesTheFixtureAndASessionRouteOverridesBoth() throws {
        let store = StubStore(fixtures: Self.fixtures)
        let before = store.snapshot
        let global = try store.add([route("/zen", outcome: ok("global"))])
        let mine = try store.add([route("/zen", outcome: ok("mine"))], session: "mine")
        #expect(global == [RouteID(.runtime, 1)])
        #expect(mine == [RouteID(.runtime, 2)])
        #expect(Self.answer(before, "/zen") == "fixture")
        #expect(Self.answer(store.snapshot, "/zen") == "global")
        #expect(Self.answer(store.snapshot, "/zen", session: "mine") == "mine")
        #expect(Self.answer(store.snapshot, "/zen", session: "other") == "global")
    }

    @Test func aConflictingBatchChangesNothing() {
        let store = StubStore(fixtures: Self.fixtures)
        let before = store.snapshot
        #expect(throws: RouteTableError.self) {
            try store.add([route("/a", outcome: ok("1")), route("/a", outcome: ok("2"))])
        }
        #expect(store.snapshot === before)
        #expect(Self.answer(store.snapshot, "/a") == nil)
    }

    @Test func addingTheSameRequestAgainReplacesTheOlderRuntimeRoute() throws {
        let store = StubStore(fixtures: Self.fixtures)
        try store.add([route("/a", outcome: ok("1"))])
        try store.add([route("/a", outcome: ok("2"))])
        #expect(store.snapshot.global.routes.count == 1)
        #expect(Self.answer(store.snapshot, "/a") == "2")
    }

    @Test func fixtureRoutesCannotBeChangedAtRuntimeAndUnknownIdsAreNamed() throws {
        let store = StubStore(fixtures: Self.fixtures)
        #expect(throws: StoreError.self) { try store.remove(id: RouteID(.fixture, 0)) }
        do {
            try store.remove(id: RouteID(.runtime, 9))
            Issue.record("removing an unknown id succeeded")
        } catch {
            #expect(error.description == "no route has id r9; list them with GET /__stubd/routes")
        }
    }

    @Test func removeAllForOneSessionKeepsTheOthers() throws {
        let store = StubStore(fixtures: Self.fixtures)
        try store.add([route("/a", outcome: ok("a"))], session: "a")
        try store.add([route("/b", outcome: ok("b"))], session: "b")
        try store.add([route("/g", outcome: ok("g"))])
        #expect(store.removeAll(session: "a") == 1)
        #expect(Self.answer(store.snapshot, "/b", session: "b") == "b")
        #expect(Self.answer(store.snapshot, "/g") == "g")
        #expect(store.removeAll(session: nil) == 2)
        #expect(Self.answer(store.snapshot, "/zen") == "fixture")
    }
}
