import AdminContract
import StubModel
import StubServer
import StubdEngine

/// `/__stubd/health`, `/__stubd/reset` and `/__stubd/scenarios`.
struct StateAdmin {
    let state: SessionStore

    func health() -> Health {
        let health = state.health
        // What a recording has written so far (the dashboard shows it).
        let recording = state.forwarding.current?.recorder.map { recorder in
            let summary = recorder.summary
            return (upstream: recorder.upstream, out: summary.out, files: summary.files)
        }
        return Health(fixtureRoutes: health.fixtureRoutes, runtimeRoutes: health.runtimeRoutes, journalSize: health.journalSize,
                      journalCapacity: health.journalCapacity, recording: recording)
    }

    /// Back to the loaded fixtures: for one session (its runtime routes, scenarios, sequences and
    /// journal entries), or, without a session header, for everything.
    func reset(session: SessionID?) -> ResetDone {
        ResetDone(removedRoutes: state.reset(session: session))
    }

    func scenarioStates(session: SessionID?) -> ScenarioStates {
        let sequences = state.sequencePositions(session: session).map { entry in
            SequencePosition(route: entry.route.id.description, name: entry.route.name, served: entry.served, steps: entry.route.outcomeLabels.count,
                             next: entry.route.outcomeLabels[entry.route.index(forHit: entry.served)])
        }
        return ScenarioStates(scenarios: state.scenarioStates(session: session), sequences: sequences)
    }

    func setScenario(_ name: String, _ change: ScenarioChange, session: SessionID?) throws(AdminRefusal) -> ScenarioSet {
        guard let states = state.knownStates(ofScenario: name, session: session) else {
            let known = state.scenarioStates(session: session).keys.sorted()
            throw AdminRefusal("no route takes part in a scenario named \"\(name)\"", status: 404,
                               problems: [known.isEmpty ? "no route has a scenario" : "scenarios: \(known.joined(separator: ", "))"])
        }
        guard states.contains(change.state) else {
            throw AdminRefusal("scenario \"\(name)\" has no state \"\(change.state)\"",
                               problems: ["its routes name the states \(states.sorted().joined(separator: ", "))"])
        }
        do {
            try state.setScenario(name, state: change.state, session: session)
        } catch {
            throw AdminRefusal(error)
        }
        return ScenarioSet(name: name, state: change.state)
    }

    func resetScenarios(session: SessionID?) -> ResetDone {
        state.resetScenarios(session: session)
        return ResetDone(removedRoutes: nil)
    }
}
