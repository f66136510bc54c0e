import StubModel
import StubdEngine

/// Everything that answers requests at one moment: the fixture table, the global runtime table
/// and one runtime table per session. Immutable; a change publishes a new snapshot, and a request
/// keeps the snapshot it started with.
///
/// Lookup goes session routes → global runtime routes → fixtures, first hit wins, so a route added
/// at runtime overrides a fixture for the same request, and a session's routes override both.
public final class StubSnapshot: Sendable {
    /// Routes loaded from fixture files or Swift targets.
    public let fixtures: RouteTable
    /// Runtime routes added without a session.
    public let global: RouteTable
    /// Runtime routes per session id.
    public let sessions: [SessionID: RouteTable]
    /// Whether any layer has scenario routes (when none, lookups skip the state check).
    let hasScenarios: Bool
    /// Whether any layer has a step that sends no response byte (see `RouteTable.faultSteps`).
    let hasFaultSteps: Bool
    /// The servers any layer's routes stand for (`RouteTable.hosts`).
    let hosts: Set<String>

    init(fixtures: RouteTable, global: RouteTable, sessions: [SessionID: RouteTable]) {
        self.fixtures = fixtures
        self.global = global
        self.sessions = sessions
        hasScenarios = fixtures.hasScenarios || global.hasScenarios || sessions.values.contains { $0.hasScenarios }
        hosts = sessions.values.reduce(fixtures.hosts.union(global.hosts)) { $0.union($1.hosts) }
        hasFaultSteps = !fixtures.faultSteps.isEmpty || !global.faultSteps.isEmpty || sessions.values.contains { !$0.faultSteps.isEmpty }
    }

    static let empty = StubSnapshot(fixtures: .empty, global: .empty, sessions: [:])

    /// The tables a request of `session` sees, highest precedence first.
    func layers(for session: SessionID?) -> [RouteTable] {
        var layers: [RouteTable] = []
        if let session, let table = sessions[session], !table.routes.isEmpty { layers.append(table) }
        if !global.routes.isEmpty { layers.append(global) }
        layers.append(fixtures)
        return layers
    }

    /// The route for a request (see `RouteTable.match`), or the closest routes of every layer.
    /// `accept` (scenario state) may be nil when no route has a scenario.
    /// `explainMisses: false` skips ranking and explaining near misses (a miss that will be
    /// forwarded upstream never shows them).
    func lookup(_ request: IncomingRequest, session: SessionID?, accept: ((Route) -> Bool)?, redactor: Redactor = .off,
                explainMisses: Bool = true) -> LookupResult {
        let view = RequestView(request, redactor: redactor, knownHosts: hosts)
        if let session, let table = sessions[session], !table.routes.isEmpty, let route = table.match(view, accept: accept) {
            return .hit(route)
        }
        if !global.routes.isEmpty, let route = global.match(view, accept: accept) { return .hit(route) }
        if let route = fixtures.match(view, accept: accept) { return .hit(route) }
        guard explainMisses else { return .miss([]) }
        let scored = layers(for: session).flatMap { $0.nearMisses(view, limit: 3) }
        return .miss(scored.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }
            .prefix(3).map(\.element.miss))
    }

    /// The fault-step routes a session sees (`RouteTable.faultSteps`).
    func faultSteps(for session: SessionID?) -> [Route] {
        var steps = fixtures.faultSteps + global.faultSteps
        if let session, let table = sessions[session] { steps += table.faultSteps }
        return steps
    }

    /// Every route a session sees, in lookup order, with where it lives.
    func visibleRoutes(session: SessionID?) -> [(route: Route, session: SessionID?)] {
        var list: [(Route, SessionID?)] = []
        if let session, let table = sessions[session] { list += table.routes.map { ($0, session) } }
        list += global.routes.map { ($0, nil) }
        list += fixtures.routes.map { ($0, nil) }
        return list
    }
}
