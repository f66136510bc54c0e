import TargetModel

/// `/__stubd/health`, `/__stubd/reset` and `/__stubd/scenarios`.
struct StateAdmin {
    let store: StubStore
    let journal: RequestJournal
    let scenarios: ScenarioBook

    func health() -> PreparedReply {
        let snapshot = store.snapshot
        let runtime = snapshot.global.routes.count + snapshot.sessions.values.reduce(0) { $0 + $1.routes.count }
        return AdminReply.json(.object([
            ("status", .string("ok")),
            ("fixtureRoutes", AdminReply.number(snapshot.fixtures.routes.count)),
            ("runtimeRoutes", AdminReply.number(runtime)),
            ("journal", .object([("size", AdminReply.number(journal.size)), ("capacity", AdminReply.number(journal.capacity))])),
        ]))
    }

    /// Back to the loaded fixtures: for one session (its runtime routes, scenarios, sequences and
    /// journal entries), or, without a session header, for everything.
    func reset(session: String?) -> PreparedReply {
        let removed = store.removeAll(session: session)
        scenarios.reset(session: session)
        journal.clear(session: session)
        return AdminReply.json(.object([("reset", .bool(true)), ("removedRoutes", AdminReply.number(removed))]))
    }

    func scenarioStates(session: String?) -> PreparedReply {
        let snapshot = store.snapshot
        let names = Set(snapshot.visibleRoutes(session: session).compactMap { $0.route.fixture.scenario?.name })
        let states = scenarios.states(session: session ?? "")
        let all = names.union(states.keys).sorted()
        return AdminReply.json(.object([("scenarios", .object(all.map { ($0, .string(states[$0] ?? ScenarioStep.started)) }))]))
    }

    func setScenario(_ name: String, body: [UInt8], session: String?) -> PreparedReply {
        guard case .string(let state)? = (try? JSONParser.parse(body))?["state"] else {
            return AdminReply.error("expected a body like {\"state\": \"Step 2\"}", status: 400)
        }
        scenarios.set(name, to: state, session: session ?? "")
        return AdminReply.json(.object([(name, .string(state))]))
    }

    func resetScenarios(session: String?) -> PreparedReply {
        scenarios.reset(session: session)
        return AdminReply.json(.object([("reset", .bool(true))]))
    }
}
