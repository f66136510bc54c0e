import StubModel
import StubdMatching
import StubdEngine
import AdminContract

/// Everything that answers requests at one moment: the fixture table, the global runtime layer
/// and one runtime layer per session. Immutable; a change publishes a new snapshot sharing all it
/// did not change, and a request keeps the snapshot it started with.
///
/// Lookup goes session routes → global runtime routes → fixtures, first hit wins, so a route added
/// at runtime overrides a fixture for the same request, and a session's routes override both.
public final class StubSnapshot: Sendable {
    /// Routes loaded from fixture files or Swift targets.
    public let fixtures: RouteTable
    /// Runtime routes added without a session.
    let global: RuntimeLayer
    /// Runtime routes per session id.
    let sessions: PersistentMap<SessionID, RuntimeLayer>
    /// Whether any layer has scenario routes (when none, lookups skip the state check).
    let hasScenarios: Bool
    /// The servers any layer's routes stand for (`RouteTable.hosts`).
    package let hosts: Set<String>
    /// Routes turned off for every session, and per session (`StubStore.switchRoute`).
    let offForAll: Set<RouteID>
    let offBySession: PersistentMap<SessionID, Set<RouteID>>

    /// A snapshot of these layers; the flags summarise every layer (the store keeps them as it
    /// changes one, so no snapshot walks the sessions).
    init(fixtures: RouteTable, global: RuntimeLayer, sessions: PersistentMap<SessionID, RuntimeLayer>,
         hasScenarios: Bool, hosts: Set<String>, offForAll: Set<RouteID> = [], offBySession: PersistentMap<SessionID, Set<RouteID>> = PersistentMap()) {
        self.fixtures = fixtures
        self.global = global
        self.sessions = sessions
        self.hasScenarios = hasScenarios
        self.hosts = hosts
        self.offForAll = offForAll
        self.offBySession = offBySession
    }

    /// The routes a session's requests pass by (turned off for it or for everyone); nil when none.
    func switchedOff(session: SessionID?) -> Set<RouteID>? {
        let own = session.flatMap { offBySession.isEmpty ? nil : offBySession[$0] }
        if offForAll.isEmpty { return own }
        return own.map { $0.union(offForAll) } ?? offForAll
    }

    /// Fixtures only.
    convenience init(fixtures: RouteTable) {
        self.init(fixtures: fixtures, global: .empty, sessions: PersistentMap(), hasScenarios: fixtures.hasScenarios,
                  hosts: fixtures.hosts)
    }

    static let empty = StubSnapshot(fixtures: .empty)

    /// The route for a request (see `RouteTable.match`), or the closest routes of every layer.
    /// `accept` (scenario state) may be nil when no route has a scenario.
    /// `explainMisses: false` skips ranking and explaining near misses (a miss that will be
    /// forwarded upstream never shows them).
    func lookup(_ request: IncomingRequest, session: SessionID?, accept: ((Route) -> Bool)?, redactor: Redactor = .off,
                explainMisses: Bool = true) -> LookupResult {
        let view = RequestView(request, redactor: redactor, knownHosts: hosts)
        var accept = accept
        let off = switchedOff(session: session)
        if let off {
            // A route turned off is passed by as a scenario step in another state is.
            let inner = accept
            accept = { route in !off.contains(route.id) && (inner?(route) ?? true) }
        }
        let own = session.flatMap { sessions.isEmpty ? nil : sessions[$0] }
        if let own, let route = own.match(view, accept: accept) { return .hit(route) }
        if !global.isEmpty, let route = global.match(view, accept: accept) { return .hit(route) }
        if let route = fixtures.match(view, accept: accept) { return .hit(route) }
        guard explainMisses else { return .miss([]) }
        let scored = (own?.nearMisses(view, limit: 3) ?? []) + global.nearMisses(view, limit: 3) + fixtures.nearMisses(view, limit: 3)
        return .miss(scored.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }
            .prefix(3).map { entry in
                // A route that matches but was turned off says so, and how to turn it back on.
                guard entry.element.miss.differences.isEmpty, let off, off.contains(entry.element.miss.route.id) else { return entry.element.miss }
                let id = entry.element.miss.route.id
                return NearMiss(route: entry.element.miss.route,
                                differences: ["turned off (POST \(AdminContract.prefix)/routes/\(id)/enable turns it back on)"])
            })
    }

    /// Every route a session sees, in lookup order, with where it lives.
    func visibleRoutes(session: SessionID?) -> [(route: Route, session: SessionID?)] {
        var list: [(Route, SessionID?)] = []
        if let session, let layer = sessions[session] { list += layer.orderedRoutes.map { ($0, session) } }
        list += global.orderedRoutes.map { ($0, nil) }
        list += fixtures.routes.map { ($0, nil) }
        return list
    }

    /// Runtime routes of every session.
    var runtimeRouteCount: Int {
        sessions.values.reduce(global.count) { $0 + $1.count }
    }
}
