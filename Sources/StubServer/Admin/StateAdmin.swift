import StubModel
import StubdEngine

/// `/__stubd/health`, `/__stubd/reset` and `/__stubd/scenarios`.
struct StateAdmin {
    let admin: StubAdmin

    func health() -> PreparedReply {
        let health = admin.health
        var members: [(key: String, value: JSONValue)] = [
            ("status", .string("ok")),
            ("fixtureRoutes", AdminReply.number(health.fixtureRoutes)),
            ("runtimeRoutes", AdminReply.number(health.runtimeRoutes)),
            ("journal", .object([("size", AdminReply.number(health.journalSize)),
                                 ("capacity", AdminReply.number(health.journalCapacity))])),
        ]
        if let recorder = admin.forwarding.current?.recorder {
            // What a recording has written so far (the dashboard shows it).
            let summary = recorder.summary
            members.append(("recording", .object([("upstream", .string(recorder.upstream)), ("out", .string(summary.out)),
                                                  ("files", .array(summary.files.map { .string($0) }))])))
        }
        return AdminReply.json(.object(members))
    }

    /// Back to the loaded fixtures: for one session (its runtime routes, scenarios, sequences and
    /// journal entries), or, without a session header, for everything.
    func reset(session: SessionID?) -> PreparedReply {
        let removed = admin.reset(session: session)
        return AdminReply.json(.object([("reset", .bool(true)), ("removedRoutes", AdminReply.number(removed))]))
    }

    func scenarioStates(session: SessionID?) -> PreparedReply {
        let states = admin.scenarioStates(session: session)
        let sequences = admin.sequencePositions(session: session).map { entry -> JSONValue in
            .object([("route", .string(entry.route.id.description)), ("name", .string(entry.route.name)),
                     ("served", AdminReply.number(entry.served)), ("steps", AdminReply.number(entry.route.contents.count)),
                     ("next", .string(entry.route.outcomeLabel.split(separator: ",").map(String.init)[min(entry.served, entry.route.contents.count - 1)]))])
        }
        return AdminReply.json(.object([("scenarios", .object(states.keys.sorted().map { ($0, .string(states[$0]!)) })),
                                        ("sequences", .array(sequences))]))
    }

    func setScenario(_ name: String, _ change: ScenarioChange, session: SessionID?) throws(AdminRefusal) -> ScenarioSet {
        guard let states = admin.knownStates(ofScenario: name, session: session) else {
            let known = admin.scenarioStates(session: session).keys.sorted()
            throw AdminRefusal("no route takes part in a scenario named \"\(name)\"", status: 404,
                               problems: [known.isEmpty ? "no route has a scenario" : "scenarios: \(known.joined(separator: ", "))"])
        }
        guard states.contains(change.state) else {
            throw AdminRefusal("scenario \"\(name)\" has no state \"\(change.state)\"",
                               problems: ["its routes name the states \(states.sorted().joined(separator: ", "))"])
        }
        do {
            try admin.setScenario(name, state: change.state, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return ScenarioSet(name: name, state: change.state)
    }

    func resetScenarios(session: SessionID?) -> PreparedReply {
        admin.resetScenarios(session: session)
        return AdminReply.json(.object([("reset", .bool(true))]))
    }
}
