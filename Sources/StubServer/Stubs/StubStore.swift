import Atomics
import Synchronization
import StubModel

/// The stubs being served, and the only place they change: fixture reloads and runtime
/// add/replace/remove. Every change compiles new tables and publishes a new `StubSnapshot`
/// atomically; a change that does not compile leaves everything as it was.
public final class StubStore: Sendable {
    /// A route added at runtime (admin API or embedding), visible to one session or to all.
    struct RuntimeRoute: Sendable {
        let id: RouteID
        let session: SessionID?
        /// Compiled once, when added; its order is its id's number, so tables built from any
        /// selection of runtime routes keep their declaration order.
        let route: Route
        var fixture: Fixture { route.fixture }

        init(id: RouteID, session: SessionID?, fixture: Fixture) {
            self.id = id
            self.session = session
            self.route = Route(fixture: fixture, id: id, order: id.number)
        }
    }

    private struct State {
        var fixtures: RouteTable
        var runtime: [RuntimeRoute] = []
        var nextID = 1
        var snapshot: StubSnapshot
    }

    private let state: Mutex<State>
    /// The published snapshot, read once per request on the serving path; written (under
    /// `state`'s lock) by every change.
    private let current: PublishedReference<StubSnapshot>
    /// `snapshot.hasFaultSteps`, readable with one plain atomic load, so replies skip the
    /// fault-step check (and a second snapshot load) when no route has such a step.
    private let faultSteps = ManagedAtomic<Bool>(false)

    /// A store serving `fixtures` with no runtime routes.
    public init(fixtures: RouteTable) {
        let snapshot = StubSnapshot(fixtures: fixtures, global: .empty, sessions: [:])
        state = Mutex(State(fixtures: fixtures, snapshot: snapshot))
        current = PublishedReference(snapshot)
        faultSteps.store(snapshot.hasFaultSteps, ordering: .releasing)
    }

    /// Whether the published snapshot has a sequence or scenario step that sends no byte.
    var hasFaultSteps: Bool { faultSteps.load(ordering: .relaxed) }

    /// The current snapshot (lock-free); hold on to it for the whole request.
    public var snapshot: StubSnapshot { current.value }

    /// Makes `snapshot` the one requests see (under `state`'s lock).
    private func publish(_ snapshot: StubSnapshot) {
        current.publish(snapshot)
        faultSteps.store(snapshot.hasFaultSteps, ordering: .releasing)
    }

    /// Adds runtime routes for a session (nil: every session). A route whose request pattern equals
    /// an existing runtime route of the same session replaces it (the newest stub wins); two routes
    /// of one batch that answer the same request differently are a conflict, and nothing is added.
    /// Returns the new routes' ids.
    @discardableResult
    public func add(_ fixtures: [Fixture], session: SessionID? = nil) throws(RouteTableError) -> [RouteID] {
        try state.withLock { (state: inout State) throws(RouteTableError) -> [RouteID] in
            // A new route replaces the session's runtime route in the same slot: one set lookup
            // per existing route, so a batch costs what it adds, not batch × existing.
            let slots = Set(fixtures.map(AnswerSlot.init))
            var runtime = state.runtime.filter { existing in existing.session != session || !slots.contains(AnswerSlot(existing.fixture)) }
            var ids: [RouteID] = []
            var next = state.nextID
            for fixture in fixtures {
                let id = RouteID(.runtime, next)
                next += 1
                runtime.append(RuntimeRoute(id: id, session: session, fixture: fixture))
                ids.append(id)
            }
            try Self.publish(&state, runtime: runtime)
            publish(state.snapshot)
            state.nextID = next
            return ids
        }
    }

    /// Replaces the runtime route `id`, keeping its id and session.
    public func replace(id: RouteID, with fixture: Fixture) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard let index = state.runtime.firstIndex(where: { $0.id == id }) else {
                throw state.fixtures.routes.contains { $0.id == id } ? .fixtureRoute(id) : .unknownRoute(id)
            }
            var runtime = state.runtime
            let session = runtime[index].session
            runtime[index] = RuntimeRoute(id: id, session: session, fixture: fixture)
            runtime.removeAll { $0.id != id && $0.session == session && $0.fixture.request == fixture.request
                && $0.fixture.scenario == fixture.scenario && $0.fixture.priority == fixture.priority }
            do throws(RouteTableError) {
                try Self.publish(&state, runtime: runtime)
                publish(state.snapshot)
            } catch {
                throw .invalid(error)
            }
        }
    }

    /// Removes the runtime route `id`.
    public func remove(id: RouteID) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard state.runtime.contains(where: { $0.id == id }) else {
                throw state.fixtures.routes.contains { $0.id == id } ? .fixtureRoute(id) : .unknownRoute(id)
            }
            try? Self.publish(&state, runtime: state.runtime.filter { $0.id != id })
            publish(state.snapshot)
        }
    }

    /// Removes the runtime routes of one session, or (nil) every runtime route; returns how many.
    @discardableResult
    public func removeAll(session: SessionID?) -> Int {
        state.withLock { state in
            let kept = state.runtime.filter { session != nil && $0.session != session }
            let removed = state.runtime.count - kept.count
            try? Self.publish(&state, runtime: kept)
            publish(state.snapshot)
            return removed
        }
    }

    /// Swaps in a newly loaded fixture table (hot reload); runtime routes stay.
    public func replaceFixtures(_ table: RouteTable) {
        state.withLock { state in
            state.fixtures = table
            try? Self.publish(&state, runtime: state.runtime)
            publish(state.snapshot)
        }
    }

    private static func publish(_ state: inout State, runtime: [RuntimeRoute]) throws(RouteTableError) {
        var bySession: [SessionID: [Route]] = [:]
        var global: [Route] = []
        for runtimeRoute in runtime {
            if let session = runtimeRoute.session {
                bySession[session, default: []].append(runtimeRoute.route)
            } else {
                global.append(runtimeRoute.route)
            }
        }
        let globalTable = try RouteTable(compiled: global)
        var sessions: [SessionID: RouteTable] = [:]
        for (session, routes) in bySession { sessions[session] = try RouteTable(compiled: routes) }
        state.runtime = runtime
        state.snapshot = StubSnapshot(fixtures: state.fixtures, global: globalTable, sessions: sessions)
    }
}

/// Why a runtime change was refused.
public enum StoreError: Error, CustomStringConvertible {
    /// No route has this id.
    case unknownRoute(RouteID)
    /// The id names a fixture route, which only its file can change.
    case fixtureRoute(RouteID)
    /// The new routes do not compile.
    case invalid(RouteTableError)

    /// What to do about it.
    public var description: String {
        switch self {
        case .unknownRoute(let id):
            return "no route has id \(id); list them with GET /__stubd/routes"
        case .fixtureRoute(let id):
            return "route \(id) comes from a fixture file; edit the file (serve --watch reloads it) or add a runtime route, which overrides it"
        case .invalid(let error):
            return error.description
        }
    }
}
