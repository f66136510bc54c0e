import Dispatch
public import StubModel
public import StubdState
public import StubdTemplates
public import StubdCollections
public import StubdWebSockets

/// The session store: the one owner of a server's changeable state — the stub store, scenario
/// states and sequence positions, the journal, and every answer kind's per-session state (each a
/// `SessionState`) — and the only way to change it. The admin API, `StubdServer`, the recorder and
/// the dashboard all call these methods, so a reset means the same thing wherever it comes from.
///
/// Thread-safe: each part keeps its own lock, and every change to the stubs publishes a new
/// immutable snapshot that requests in flight do not see.
public final class SessionStore: Sendable, CollectionItemsSource {
    /// The stubs being served.
    package let store: StubStore
    /// Scenario states and sequence positions.
    let scenarios: ScenarioBook
    /// The last requests served.
    public let journal: RequestJournal
    /// Where misses go (an upstream, recorded or not).
    public let forwarding: Forwarding
    /// The byte bounds every per-session store is charged to.
    public let budget: StateBudget
    /// Fixed clocks and counters of response templates.
    public let templates: TemplateState
    /// The items of declared collections, per session.
    public let collections: CollectionStore
    /// Stores of features above the core (webhooks) that a session reset clears too.
    private let otherStores: [any SessionState]
    /// Open WebSocket conversations, for a test's pushes.
    public let webSockets = WebSocketRegistry()
    /// Where the admin API reads and applies route changes, one at a time, off the serving loops.
    private let changes = DispatchQueue(label: "stubd.route-changes")

    init(store: StubStore, budget: StateBudget, templateOutputLimit: Int, streamSpeed: Double = 1, journal: RequestJournal,
         forwarding: Forwarding = Forwarding(), otherStores: [any SessionState] = []) {
        self.store = store
        self.budget = budget
        self.scenarios = ScenarioBook(budget: budget)
        self.templates = TemplateState(budget: budget, outputLimit: templateOutputLimit, streamSpeed: streamSpeed)
        self.collections = CollectionStore(budget: budget)
        self.journal = journal
        self.forwarding = forwarding
        self.otherStores = otherStores
    }

    /// A fresh state serving `fixtures`, sending misses where `forwarding` says.
    package convenience init(fixtures: RouteTable, journal: RequestJournal = RequestJournal(), forwarding: Forwarding = Forwarding(),
                            otherStores: [any SessionState] = [],
                            limits: StateBudget.Limits = StateBudget.Limits(), templateOutputLimit: Int = TemplateState.defaultOutputLimit,
                            streamSpeed: Double = 1) {
        self.init(store: StubStore(fixtures: fixtures), budget: StateBudget(limits: limits), templateOutputLimit: templateOutputLimit,
                  streamSpeed: streamSpeed, journal: journal, forwarding: forwarding, otherStores: otherStores)
    }

    // MARK: - Routes

    /// Runs `work` on the change queue: a large batch of routes is read and compiled there while
    /// the loops keep serving, and changes apply in the order they arrived.
    public func change(_ work: @escaping @Sendable () -> Void) {
        changes.async(execute: work)
    }

    /// The fixture routes being served.
    public var fixtures: RouteTable { store.snapshot.fixtures }

    /// Every route a session sees, in lookup order (its own runtime routes, then global runtime
    /// routes, then fixtures), with the session that owns each runtime route.
    public func routes(session: SessionID?) -> [(route: Route, session: SessionID?)] {
        store.snapshot.visibleRoutes(session: session)
    }

    /// Adds runtime routes for one session (nil: every session); a route with the same request as
    /// a runtime route of that session replaces it. All or nothing.
    @discardableResult
    public func add(_ fixtures: [Fixture], session: SessionID?) throws(RouteTableError) -> [RouteID] {
        try store.add(fixtures, session: session)
    }

    /// Replaces runtime route `id`, keeping its id and session.
    public func replace(id: RouteID, with fixture: Fixture) throws(StoreError) {
        try store.replace(id: id, with: fixture)
    }

    /// Removes runtime route `id`.
    public func remove(id: RouteID) throws(StoreError) {
        try store.remove(id: id)
    }

    /// Turns route `id` off or back on for one session, or (nil) for every session
    /// (`StubStore.switchRoute`).
    public func switchRoute(id: RouteID, off: Bool, session: SessionID?) throws(StoreError) {
        try store.switchRoute(id: id, off: off, session: session)
    }

    /// The routes a session's requests pass by (turned off for it or for everyone).
    public func switchedOffRoutes(session: SessionID?) -> Set<RouteID> {
        store.snapshot.switchedOff(session: session) ?? []
    }

    /// Removes one session's runtime routes, or (nil) all of them; returns how many.
    @discardableResult
    public func removeRoutes(session: SessionID?) -> Int {
        store.removeAll(session: session)
    }

    /// Serves a newly loaded fixture table (hot reload); runtime routes stay, fixture sequences
    /// restart (their ids are renumbered).
    public func replaceFixtures(_ table: RouteTable) {
        store.replaceFixtures(table)
        scenarios.resetFixtureHits()
    }

    /// The items a session sees in the collection called `name`, or nil when no route serves one
    /// (what `{{collection.NAME…}}` reads).
    public func collectionItems(named name: String, session: SessionID?) -> [JSONValue]? {
        collectionSpec(named: name, session: session).map { collections.items($0, session: session) }
    }

    /// How many items a session sees in the collection called `name` (`{{collection.NAME.count}}`).
    public func collectionCount(named name: String, session: SessionID?) -> Int? {
        collectionSpec(named: name, session: session).map { collections.count($0, session: session) }
    }

    private func collectionSpec(named name: String, session: SessionID?) -> CollectionSpec? {
        routes(session: session).lazy.compactMap({ $0.route.collection?.collection }).first(where: { $0.name == name })
    }

    /// Back to the loaded fixtures: for one session (its runtime routes, scenario states, sequence
    /// positions and journal entries), or (nil) for the whole server. Returns the routes removed.
    @discardableResult
    public func reset(session: SessionID?) -> Int {
        let removed = store.removeAll(session: session)
        let stores: [any SessionState] = [scenarios, journal, templates, collections, webSockets]
        for store in stores + otherStores { store.reset(session: session) }
        budget.unpin(session: session)
        return removed
    }

    // MARK: - Scenarios

    /// The state of every scenario a session can see (named by a route, or set explicitly).
    public func scenarioStates(session: SessionID?) -> [String: String] {
        let named = Set(routes(session: session).compactMap { $0.route.fixture.scenario?.name })
        let states = scenarios.states(session: session)
        var all: [String: String] = [:]
        for name in named.union(states.keys) { all[name] = states[name] ?? ScenarioStep.started }
        return all
    }

    /// Where each sequence (a route with several answers) stands for `session`: the answers it
    /// has served and how many it has; the next is answer `min(served, steps - 1)`.
    public func sequencePositions(session: SessionID?) -> [(route: Route, served: Int)] {
        routes(session: session).filter { $0.route.isSequence }.map { entry in
            (entry.route, scenarios.hitsServed(route: entry.route.id, session: session))
        }
    }

    /// The states the routes a session sees give scenario `name` (its required and new states,
    /// and `Started`), or nil when no route names that scenario: what a state may be set to.
    public func knownStates(ofScenario name: String, session: SessionID?) -> Set<String>? {
        let steps = routes(session: session).compactMap(\.route.fixture.scenario).filter { $0.name == name }
        guard !steps.isEmpty else { return nil }
        return Set(steps.flatMap { [$0.requiredState, $0.newState].compactMap { $0 } } + [ScenarioStep.started])
    }

    /// The state of one scenario (`Started` until a stub moves it).
    public func scenarioState(_ name: String, session: SessionID?) -> String {
        scenarios.state(of: name, session: session)
    }

    /// Forces a scenario into a state; refused past a store bound.
    public func setScenario(_ name: String, state: String, session: SessionID?) throws(StateBudget.Refusal) {
        try scenarios.set(name, to: state, session: session)
    }

    /// Back to `Started` and first sequence responses, for one session or (nil) all.
    public func resetScenarios(session: SessionID?) {
        scenarios.reset(session: session)
    }

    // MARK: - Journal

    /// Journal entries matching `query`, oldest first.
    public func requests(_ query: JournalQuery) -> [JournalEntry] {
        journal.entries(matching: query)
    }

    /// How many journal entries match `query`.
    public func count(_ query: JournalQuery) -> Int {
        journal.count(matching: query)
    }

    /// Forgets one session's journal entries, or (nil) all.
    public func clearRequests(session: SessionID?) {
        journal.clear(session: session)
    }

    // MARK: - Health

    /// Route and journal counts, for `GET /__stubd/health`.
    public var health: Health {
        let snapshot = store.snapshot
        let runtime = snapshot.runtimeRouteCount
        return Health(fixtureRoutes: snapshot.fixtures.routes.count, runtimeRoutes: runtime,
                      journalSize: journal.size, journalCapacity: journal.capacity)
    }

    /// What `health` reports.
    public struct Health: Sendable, Equatable {
        /// Routes from fixture files or targets.
        public let fixtureRoutes: Int
        /// Runtime routes of every session.
        public let runtimeRoutes: Int
        /// Journal entries held.
        public let journalSize: Int
        /// Journal entries kept at most.
        public let journalCapacity: Int
    }
}
