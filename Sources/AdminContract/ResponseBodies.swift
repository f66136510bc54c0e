public import StubModel

/// `GET /__stubd/health`.
public struct Health: AdminBody {
    /// Routes from fixture files or targets.
    public let fixtureRoutes: Int
    /// Runtime routes of every session.
    public let runtimeRoutes: Int
    /// Journal entries held, and kept at most.
    public let journalSize: Int
    /// How many entries the journal keeps at most (`--journal-size`).
    public let journalCapacity: Int
    /// A recording under way: its upstream, folder and the files written so far.
    public let recording: (upstream: String, out: String, files: [String])?

    /// A health answer.
    public init(fixtureRoutes: Int, runtimeRoutes: Int, journalSize: Int, journalCapacity: Int,
                recording: (upstream: String, out: String, files: [String])? = nil) {
        self.fixtureRoutes = fixtureRoutes
        self.runtimeRoutes = runtimeRoutes
        self.journalSize = journalSize
        self.journalCapacity = journalCapacity
        self.recording = recording
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the health object")
        fixtureRoutes = try fields.int("fixtureRoutes")
        runtimeRoutes = try fields.int("runtimeRoutes")
        let journal = try JSONFields(fields.raw("journal") ?? .null, usage: "journal: expected an object")
        journalSize = try journal.int("size")
        journalCapacity = try journal.int("capacity")
        if let value = fields.raw("recording") {
            let recording = try JSONFields(value, usage: "recording: expected an object")
            self.recording = (try recording.string("upstream"), try recording.string("out"), try recording.strings("files"))
        } else {
            recording = nil
        }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("status", .string("ok")), ("fixtureRoutes", .int(fixtureRoutes)), ("runtimeRoutes", .int(runtimeRoutes)),
            ("journal", .object([("size", .int(journalSize)), ("capacity", .int(journalCapacity))])),
        ]
        if let recording {
            members.append(("recording", .object([("upstream", .string(recording.upstream)), ("out", .string(recording.out)),
                                                  ("files", .array(recording.files.map { .string($0) }))])))
        }
        return .object(members)
    }
}

/// `GET /__stubd/ready`: nothing but that the server serves (it is open to anyone).
public struct Readiness: AdminBody {
    /// Ready.
    public init() {}

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let status = try JSONFields(json, usage: "expected the readiness object").string("status")
        guard status == "ready" else { throw AdminBodyProblem("status: expected \"ready\", got \"\(status)\"") }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("status", .string("ready"))]) }
}

/// `POST /__stubd/reset` and `POST /__stubd/scenarios/reset`.
public struct ResetDone: AdminBody {
    /// Runtime routes removed (a whole reset only).
    public let removedRoutes: Int?

    /// A reset that removed `removedRoutes`.
    public init(removedRoutes: Int?) {
        self.removedRoutes = removedRoutes
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        removedRoutes = try JSONFields(json, usage: "expected the reset object").optionalInt("removedRoutes")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("reset", .bool(true))] + (removedRoutes.map { [("removedRoutes", .int($0))] } ?? []))
    }
}

/// `GET /__stubd/requests/count`.
public struct RequestCount: AdminBody {
    /// How many match.
    public let count: Int

    /// `count` requests.
    public init(_ count: Int) {
        self.count = count
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        count = try JSONFields(json, usage: "expected the count object").int("count")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("count", .int(count))]) }
}

/// `DELETE /__stubd/requests`, `DELETE /__stubd/webhooks`.
public struct Cleared: AdminBody {
    /// Cleared.
    public init() {}

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        _ = try JSONFields(json, usage: "expected the cleared object").bool("cleared")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("cleared", .bool(true))]) }
}

/// Where one sequence stands.
public struct SequencePosition: AdminBody {
    /// The route's id and name.
    public let route: String
    /// Its name.
    public let name: String
    /// Answers served, answers it has, and what the next is (`200`, `fault:reset`).
    public let served: Int
    /// How many answers the sequence has.
    public let steps: Int
    /// What the next request gets (`200`, `fault:reset`, `200 stream`).
    public let next: String

    /// A position.
    public init(route: String, name: String, served: Int, steps: Int, next: String) {
        (self.route, self.name, self.served, self.steps, self.next) = (route, name, served, steps, next)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a sequence")
        route = try fields.string("route")
        name = try fields.string("name")
        served = try fields.int("served")
        steps = try fields.int("steps")
        next = try fields.string("next")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("route", .string(route)), ("name", .string(name)), ("served", .int(served)), ("steps", .int(steps)), ("next", .string(next))])
    }
}

/// `GET /__stubd/scenarios`.
public struct ScenarioStates: AdminBody {
    /// Scenario name → state.
    public let scenarios: [String: String]
    /// Sequences and where each stands.
    public let sequences: [SequencePosition]

    /// These states.
    public init(scenarios: [String: String], sequences: [SequencePosition]) {
        self.scenarios = scenarios
        self.sequences = sequences
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the scenarios object")
        guard case .object(let members)? = fields.raw("scenarios") else { throw AdminBodyProblem("scenarios: expected an object") }
        var scenarios: [String: String] = [:]
        for member in members {
            guard case .string(let state) = member.value else { throw AdminBodyProblem("scenarios.\(member.key): expected a string") }
            scenarios[member.key] = state
        }
        self.scenarios = scenarios
        sequences = fields.raw("sequences") == nil ? [] : try fields.array("sequences").map { item throws(AdminBodyProblem) in try SequencePosition(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("scenarios", .object(scenarios.keys.sorted().map { ($0, .string(scenarios[$0]!)) })), ("sequences", .array(sequences.map(\.json)))])
    }
}

/// A scenario set to a state: `{"NAME": "STATE"}`.
public struct ScenarioSet: AdminBody {
    /// The scenario's name.
    public let name: String
    /// The state it is in now.
    public let state: String

    /// `name` set to `state`.
    public init(name: String, state: String) {
        self.name = name
        self.state = state
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        guard case .object(let members) = json, members.count == 1, case .string(let state) = members[0].value else {
            throw AdminBodyProblem(#"expected {"NAME": "STATE"}"#)
        }
        name = members[0].key
        self.state = state
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([(name, .string(state))]) }
}

/// The time templates see: `{"now": "2026-01-01T09:00:00Z"}`, or `"real time"`.
public struct ClockReading: AdminBody {
    /// The time as ISO 8601 in UTC, or `real time` when the clock is not fixed.
    public let now: String

    /// A reading of `now`.
    public init(now: String) {
        self.now = now
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        now = try JSONFields(json, usage: "expected the clock object").string("now")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("now", .string(now))]) }
}

/// The random seed in force: `{"seed": 42}` or `{"seed": null}`.
public struct SeedReading: AdminBody {
    /// The seed, or nil when randomness is not fixed.
    public let seed: UInt64?

    /// A reading of `seed`.
    public init(seed: UInt64?) {
        self.seed = seed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        seed = try SeedSetting(json: json).seed
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { SeedSetting(seed: seed).json }
}

/// A recording started: `{"recording": true, "upstream", "out", "warnings": […]}`.
public struct RecordingStarted: AdminBody {
    /// The upstream misses are forwarded to.
    public let upstream: String
    /// The folder fixtures are written into.
    public let out: String
    /// What the recorder could not honour (say, an unwritable folder), one sentence each.
    public let warnings: [String]

    /// A started recording.
    public init(upstream: String, out: String, warnings: [String]) {
        (self.upstream, self.out, self.warnings) = (upstream, out, warnings)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected the recording object")
        upstream = try fields.string("upstream")
        out = try fields.string("out")
        warnings = try fields.strings("warnings")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        .object([("recording", .bool(true)), ("upstream", .string(upstream)), ("out", .string(out)), ("warnings", .array(warnings.map { .string($0) }))])
    }
}

/// A fixture file the dashboard wrote: 201, `{"written": "PATH"}`.
public struct FixtureWritten: AdminBody {
    /// The file's path.
    public let path: String

    /// Written at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        path = try JSONFields(json, usage: "expected the written object").string("written")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("written", .string(path))]) }
}
