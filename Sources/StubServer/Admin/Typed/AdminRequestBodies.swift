import Foundation
import Recording
import StubModel

/// `PUT /__stubd/scenarios/{name}`: `{"state": "Step 2"}`.
struct ScenarioChange: AdminRequestBody {
    let state: String

    static let notJSON = AdminRefusal("expected a body like {\"state\": \"Step 2\"}")

    init(json: JSONValue) throws(AdminRefusal) {
        guard case .string(let state)? = json["state"] else { throw Self.notJSON }
        self.state = state
    }
}

/// `PUT /__stubd/clock`: `{"now": "2026-01-01T09:00:00Z"}` (ISO 8601, with a zone).
struct ClockSetting: AdminRequestBody {
    let now: Date

    static let notJSON = AdminRefusal("expected a body like {\"now\": \"2026-01-01T09:00:00Z\"} (ISO 8601, with a zone)")

    init(json: JSONValue) throws(AdminRefusal) {
        guard case .string(let text)? = json["now"], let date = ClockAdmin.parse(text) else { throw Self.notJSON }
        now = date
    }
}

/// `PUT /__stubd/random`: `{"seed": 42}`, or `{"seed": null}` for unpredictable values again.
struct SeedSetting: AdminRequestBody {
    /// Nil: unpredictable again.
    let seed: UInt64?

    static let notJSON = AdminRefusal("expected a body like {\"seed\": 42}")

    init(json: JSONValue) throws(AdminRefusal) {
        switch json["seed"] {
        case nil: throw Self.notJSON
        case .null?: seed = nil
        case .number(let number)? where number >= 0 && number == number.rounded() && number < 9_007_199_254_740_992: seed = UInt64(number)
        default: throw AdminRefusal("seed must be a whole number from 0 to 2^53, or null")
        }
    }
}

/// `PUT /__stubd/collections/{name}`: a JSON array of objects (each with the collection's id
/// field, which the handler checks: only it knows the field).
struct CollectionItems: AdminRequestBody {
    let items: [JSONValue]

    static let notJSON = AdminRefusal("expected a JSON array of objects")

    init(json: JSONValue) throws(AdminRefusal) {
        guard case .array(let items) = json else { throw Self.notJSON }
        self.items = items
    }
}

/// `POST /__stubd/recording/start`: `{"upstream": "https://api.example.com", "out":
/// "fixtures/recorded"}`, optionally `"sequences": true`, `"keep": ["X-Request-Id"]`,
/// `"overwrite": true`.
struct RecordingStart: AdminRequestBody {
    let upstream: String
    let options: RecordingOptions

    static let fields = ["upstream", "out", "sequences", "keep", "overwrite"]
    static let notJSON = AdminRefusal("expected a body like {\"upstream\": \"https://api.example.com\", \"out\": \"fixtures/recorded\"}")

    init(json: JSONValue) throws(AdminRefusal) {
        guard case .object(let members) = json else { throw Self.notJSON }
        if let unknown = members.first(where: { !Self.fields.contains($0.key) }) {
            throw AdminRefusal("\(unknown.key): unknown field; allowed: \(Self.fields.joined(separator: ", "))")
        }
        guard case .string(let url)? = json["upstream"] else {
            throw AdminRefusal("upstream: missing; give the real API's URL, e.g. \"https://api.example.com\"")
        }
        upstream = url
        var options = RecordingOptions()
        if let out = json["out"] {
            guard case .string(let text) = out, !text.isEmpty else { throw AdminRefusal("out: expected a folder path") }
            options.out = text
        }
        if let sequences = json["sequences"] {
            guard case .bool(let flag) = sequences else { throw AdminRefusal("sequences: expected true or false") }
            options.sequences = flag
        }
        if let overwrite = json["overwrite"] {
            guard case .bool(let flag) = overwrite else { throw AdminRefusal("overwrite: expected true or false") }
            options.overwrite = flag
        }
        if let keep = json["keep"] {
            guard case .array(let names) = keep else { throw AdminRefusal("keep: expected an array of names") }
            options.keep = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        self.options = options
    }
}

/// `POST /__stubd/ui/fixtures`: `{"file": "NAME.json", "document": {…fixture file…},
/// "overwrite": false}`.
struct FixtureWrite: AdminRequestBody {
    let file: String
    let document: JSONValue
    let overwrite: Bool

    static let notJSON = AdminRefusal("the body is not a JSON object", problems: [#"send {"file": "NAME.json", "document": {…}}"#])

    init(json: JSONValue) throws(AdminRefusal) {
        guard case .object = json else { throw Self.notJSON }
        guard case .string(let file)? = json["file"], FixtureDraft.isPlainName(file) else {
            throw AdminRefusal("file: give a plain file name ending in .json (letters, digits, . _ -), no folders")
        }
        guard let document = json["document"] else { throw AdminRefusal("document: missing; give the fixture file's content") }
        self.file = file
        self.document = document
        if case .bool(let value)? = json["overwrite"] { overwrite = value } else { overwrite = false }
    }
}
