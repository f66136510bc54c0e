import Synchronization
public import StubModel

/// The stubs being served, and the only place they change: fixture reloads and runtime
/// add/replace/remove. Every change makes a new `StubSnapshot` and publishes it atomically; a
/// change that does not compile leaves everything as it was.
///
/// A runtime change touches only the layer it changes (a session's, or the global one), and
/// within it only the routes it adds or removes (`RuntimeLayer`): adding one route beside 22,000
/// costs what adding one to an empty server costs. Changes are made on the caller's thread (the
/// admin API makes them on its own queue, off the serving loops); the lock is held for the swap.
public final class StubStore: Sendable {
    private struct State {
        var fixtures: RouteTable
        var global = RuntimeLayer.empty
        var sessions = PersistentMap<SessionID, RuntimeLayer>()
        /// Where each runtime route lives (never shared with a snapshot, so changed in place).
        var owners: [RouteID: SessionID?] = [:]
        var nextID = 1
        /// Sessions whose layer has scenario routes; how many routes name each host.
        var sessionsWithScenarios: Set<SessionID> = []
        var runtimeHosts: [String: Int] = [:]
        /// Routes turned off for every session, and per session (`switchRoute`).
        var offForAll: Set<RouteID> = []
        var offBySession = PersistentMap<SessionID, Set<RouteID>>()
        var snapshot: StubSnapshot

        /// Swaps in `layer` for `session`, keeping the summaries.
        mutating func put(_ layer: RuntimeLayer, session: SessionID?) {
            let old = session.map { sessions[$0] ?? .empty } ?? global
            for (host, count) in old.hostCounts { runtimeHosts[host] = (runtimeHosts[host] ?? count) - count }
            for (host, count) in layer.hostCounts { runtimeHosts[host, default: 0] += count }
            runtimeHosts = runtimeHosts.filter { $0.value > 0 }
            if let session {
                sessions = sessions.setting(session, layer.isEmpty ? nil : layer)
                if layer.hasScenarios { sessionsWithScenarios.insert(session) } else { sessionsWithScenarios.remove(session) }
            } else {
                global = layer
            }
        }

        /// The snapshot of the current layers.
        mutating func makeSnapshot() {
            let hosts = runtimeHosts.isEmpty ? fixtures.hosts : fixtures.hosts.union(runtimeHosts.keys)
            snapshot = StubSnapshot(fixtures: fixtures, global: global, sessions: sessions,
                                    hasScenarios: fixtures.hasScenarios || global.hasScenarios || !sessionsWithScenarios.isEmpty,
                                    hosts: hosts, offForAll: offForAll, offBySession: offBySession)
        }

        func layer(_ session: SessionID?) -> RuntimeLayer {
            session.map { sessions[$0] ?? .empty } ?? global
        }
    }

    private let state: Mutex<State>
    /// The published snapshot, read once per request on the serving path; written (under
    /// `state`'s lock) by every change.
    private let current: PublishedReference<StubSnapshot>

    /// A store serving `fixtures` with no runtime routes.
    public init(fixtures: RouteTable) {
        let snapshot = StubSnapshot(fixtures: fixtures)
        state = Mutex(State(fixtures: fixtures, snapshot: snapshot))
        current = PublishedReference(snapshot)
    }

    /// The current snapshot (lock-free); hold on to it for the whole request.
    public var snapshot: StubSnapshot { current.value }

    /// Makes the state's snapshot the one requests see (under `state`'s lock).
    private func publish(_ state: inout State) {
        state.makeSnapshot()
        current.publish(state.snapshot)
    }

    /// Adds runtime routes for a session (nil: every session). A route whose request pattern equals
    /// an existing runtime route of the same session replaces it (the newest stub wins); two routes
    /// of one batch that answer the same request differently are a conflict, and nothing is added.
    /// Returns the new routes' ids. Costs what it adds: the routes are compiled before the lock
    /// is taken, and only their session's layer changes.
    @discardableResult
    public func add(_ fixtures: [Fixture], session: SessionID? = nil) throws(RouteTableError) -> [RouteID] {
        let first = state.withLock { state in
            defer { state.nextID += fixtures.count }
            return state.nextID
        }
        let routes = fixtures.enumerated().map { Route(fixture: $0.element, id: RouteID(.runtime, first + $0.offset), order: first + $0.offset) }
        return try state.withLock { (state: inout State) throws(RouteTableError) -> [RouteID] in
            let old = state.layer(session)
            let layer = try old.adding(routes)
            for route in routes where layer.routes[route.id] != nil { state.owners[route.id] = .some(session) }
            // Routes the batch replaced are gone from the layer: forget their owners.
            for route in routes { if let replaced = old.route(answering: route.fixture), layer.routes[replaced.id] == nil { state.owners[replaced.id] = nil } }
            state.put(layer, session: session)
            publish(&state)
            return routes.map(\.id)
        }
    }

    /// Replaces the runtime route `id`, keeping its id and session.
    public func replace(id: RouteID, with fixture: Fixture) throws(StoreError) {
        let route = Route(fixture: fixture, id: id, order: id.number)
        try state.withLock { (state: inout State) throws(StoreError) in
            guard let owner = state.owners[id] else {
                throw state.fixtures.routes.contains { $0.id == id } ? .fixtureRoute(id) : .unknownRoute(id)
            }
            var layer = state.layer(owner)
            if let old = layer.routes[id] { layer = layer.removing(old) }
            if let same = layer.route(answering: fixture) {
                layer = layer.removing(same)
                state.owners[same.id] = nil
            }
            do throws(RouteTableError) {
                layer = try layer.adding([route])
            } catch {
                throw .invalid(error)
            }
            state.put(layer, session: owner)
            publish(&state)
        }
    }

    /// Removes the runtime route `id`.
    public func remove(id: RouteID) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard let owner = state.owners[id] else {
                throw state.fixtures.routes.contains { $0.id == id } ? .fixtureRoute(id) : .unknownRoute(id)
            }
            let layer = state.layer(owner)
            if let route = layer.routes[id] { state.put(layer.removing(route), session: owner) }
            state.owners[id] = nil
            publish(&state)
        }
    }

    /// Turns route `id` (a fixture's or a runtime one) off or back on for one session, or (nil) for
    /// every session: while off, requests pass it by to the next route that matches, as if it
    /// were not there; nothing on disk changes. A reset of the session (or the server) turns its
    /// routes back on; a fixture reload turns fixture routes back on (their ids are renumbered).
    public func switchRoute(id: RouteID, off: Bool, session: SessionID?) throws(StoreError) {
        try state.withLock { (state: inout State) throws(StoreError) in
            guard state.owners[id] != nil || (id.origin == .fixture && state.fixtures.routes.contains { $0.id == id }) else {
                throw .unknownRoute(id)
            }
            if let session {
                var set = state.offBySession[session] ?? []
                if off { set.insert(id) } else { set.remove(id) }
                state.offBySession = state.offBySession.setting(session, set.isEmpty ? nil : set)
            } else if off {
                state.offForAll.insert(id)
            } else {
                state.offForAll.remove(id)
            }
            publish(&state)
        }
    }

    /// Removes the runtime routes of one session, or (nil) every runtime route; returns how many.
    @discardableResult
    public func removeAll(session: SessionID?) -> Int {
        state.withLock { state in
            guard let session else {
                let removed = state.owners.count
                state.owners.removeAll()
                state.offForAll = []
                state.offBySession = PersistentMap()
                state.global = .empty
                state.sessions = PersistentMap()
                state.sessionsWithScenarios = []
                state.runtimeHosts = [:]
                publish(&state)
                return removed
            }
            if state.offBySession[session] != nil {
                state.offBySession = state.offBySession.setting(session, nil)
                publish(&state)
            }
            guard let layer = state.sessions[session] else { return 0 }
            for id in layer.routes.entries.map(\.key) { state.owners[id] = nil }
            state.put(.empty, session: session)
            publish(&state)
            return layer.count
        }
    }

    /// Swaps in a newly loaded fixture table (hot reload); runtime routes stay.
    public func replaceFixtures(_ table: RouteTable) {
        state.withLock { state in
            state.fixtures = table
            // Fixture ids are renumbered: what was turned off by id is on again.
            state.offForAll = state.offForAll.filter { $0.origin == .runtime }
            for (session, set) in state.offBySession.entries {
                let kept = set.filter { $0.origin == .runtime }
                if kept.count != set.count { state.offBySession = state.offBySession.setting(session, kept.isEmpty ? nil : kept) }
            }
            publish(&state)
        }
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
