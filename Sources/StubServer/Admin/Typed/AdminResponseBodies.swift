import StubModel

/// A scenario set to a state: `{"NAME": "STATE"}`.
struct ScenarioSet: AdminResponseBody {
    let name: String
    let state: String
    var json: JSONValue { .object([(name, .string(state))]) }
}

/// The time templates see: `{"now": "2026-01-01T09:00:00Z"}`, or `"real time"`.
struct ClockReading: AdminResponseBody {
    let now: String
    var json: JSONValue { .object([("now", .string(now))]) }
}

/// The random seed in force: `{"seed": 42}` or `{"seed": null}`.
struct SeedReading: AdminResponseBody {
    let seed: UInt64?
    var json: JSONValue { .object([("seed", seed.map { .number(Double($0)) } ?? .null)]) }
}

/// A collection's items replaced: `{"name": "users", "count": 3}`.
struct CollectionCount: AdminResponseBody {
    let name: String
    let count: Int
    var json: JSONValue { .object([("name", .string(name)), ("count", AdminReply.number(count))]) }
}

/// A recording started: `{"recording": true, "upstream", "out", "warnings": […]}`.
struct RecordingStarted: AdminResponseBody {
    let upstream: String
    let out: String
    let warnings: [String]
    var json: JSONValue {
        .object([("recording", .bool(true)), ("upstream", .string(upstream)), ("out", .string(out)),
                 ("warnings", .array(warnings.map { .string($0) }))])
    }
}

/// A fixture file the dashboard wrote: 201, `{"written": "PATH"}`.
struct FixtureWritten: AdminResponseBody {
    let path: String
    var json: JSONValue { .object([("written", .string(path))]) }
    var status: Int { 201 }
}
