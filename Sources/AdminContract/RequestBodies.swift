public import Foundation
public import StubModel

/// `PUT /__stubd/scenarios/{name}`: `{"state": "Step 2"}`.
public struct ScenarioChange: AdminBody {
    /// The state to set.
    public let state: String

    /// A change to `state`.
    public init(state: String) {
        self.state = state
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        state = try JSONFields(json, usage: #"expected a body like {"state": "Step 2"}"#).string("state")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("state", .string(state))]) }
}

/// `PUT /__stubd/clock`: `{"now": "2026-01-01T09:00:00Z"}` (ISO 8601, with a zone).
public struct ClockSetting: AdminBody {
    /// The time `{{now}}` gives.
    public let now: Date

    /// A clock fixed at `now`.
    public init(now: Date) {
        self.now = now
    }

    static let usage = #"expected a body like {"now": "2026-01-01T09:00:00Z"} (ISO 8601, with a zone)"#

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        guard case .string(let text)? = json["now"], let date = Self.parse(text) else { throw AdminBodyProblem(Self.usage) }
        now = date
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("now", .string(Self.format(now)))]) }

    /// An ISO 8601 time with a zone, fractional seconds allowed.
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// `2026-01-01T09:00:00Z`.
    public static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}

/// `PUT /__stubd/random`: `{"seed": 42}`, or `{"seed": null}` for unpredictable values again.
public struct SeedSetting: AdminBody {
    /// Nil: unpredictable again.
    public let seed: UInt64?

    /// A setting of `seed`.
    public init(seed: UInt64?) {
        self.seed = seed
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        switch json["seed"] {
        case nil: throw AdminBodyProblem(#"expected a body like {"seed": 42}"#)
        case .null?: seed = nil
        case .number(let number)? where number >= 0 && number == number.rounded() && number < 9_007_199_254_740_992: seed = UInt64(number)
        default: throw AdminBodyProblem("seed must be a whole number from 0 to 2^53, or null")
        }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("seed", seed.map { .number(Double($0)) } ?? .null)]) }
}

/// `PUT /__stubd/collections/{name}`: a JSON array of objects (each with the collection's id
/// field, which the server checks: only it knows the field).
public struct CollectionItems: AdminBody {
    /// The items.
    public let items: [JSONValue]

    /// These items.
    public init(_ items: [JSONValue]) {
        self.items = items
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        guard case .array(let items) = json else { throw AdminBodyProblem("expected a JSON array of objects") }
        self.items = items
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .array(items) }
}

/// `POST /__stubd/recording/start`: `{"upstream": "https://api.example.com", "out":
/// "fixtures/recorded"}`, optionally `"sequences": true`, `"keep": ["X-Request-Id"]`,
/// `"overwrite": true`.
public struct RecordingStart: AdminBody {
    /// The real API.
    public let upstream: String
    /// The folder written to (default: the server's).
    public let out: String?
    /// Record a request answered differently as a sequence.
    public let sequences: Bool
    /// Header names kept in the fixtures.
    public let keep: [String]
    /// Replace hand-written files of the same name.
    public let overwrite: Bool

    static let fields = ["upstream", "out", "sequences", "keep", "overwrite"]

    /// A recording from `upstream`.
    public init(upstream: String, out: String? = nil, sequences: Bool = false, keep: [String] = [], overwrite: Bool = false) {
        self.upstream = upstream
        self.out = out
        self.sequences = sequences
        self.keep = keep
        self.overwrite = overwrite
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: #"expected a body like {"upstream": "https://api.example.com", "out": "fixtures/recorded"}"#)
        if let unknown = fields.names.first(where: { !Self.fields.contains($0) }) {
            throw AdminBodyProblem("\(unknown): unknown field; allowed: \(Self.fields.joined(separator: ", "))")
        }
        guard case .string(let url)? = fields.raw("upstream") else {
            throw AdminBodyProblem(#"upstream: missing; give the real API's URL, e.g. "https://api.example.com""#)
        }
        upstream = url
        out = try fields.optionalString("out")
        if out?.isEmpty == true { throw AdminBodyProblem("out: expected a folder path") }
        sequences = try fields.bool("sequences", absent: false)
        overwrite = try fields.bool("overwrite", absent: false)
        keep = fields.raw("keep") == nil ? [] : try fields.strings("keep")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("upstream", .string(upstream))]
        if let out { members.append(("out", .string(out))) }
        if sequences { members.append(("sequences", .bool(true))) }
        if !keep.isEmpty { members.append(("keep", .array(keep.map { .string($0) }))) }
        if overwrite { members.append(("overwrite", .bool(true))) }
        return .object(members)
    }
}

/// `POST /__stubd/ui/fixtures`: `{"file": "NAME.json", "document": {…fixture file…},
/// "overwrite": false}`.
public struct FixtureWrite: AdminBody {
    /// A plain file name ending in `.json`.
    public let file: String
    /// The fixture file's content.
    public let document: JSONValue
    /// Replace a file of that name.
    public let overwrite: Bool

    /// A file to write.
    public init(file: String, document: JSONValue, overwrite: Bool = false) {
        self.file = file
        self.document = document
        self.overwrite = overwrite
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: #"the body is not a JSON object; send {"file": "NAME.json", "document": {…}}"#)
        guard case .string(let file)? = fields.raw("file"), Self.isPlainName(file) else {
            throw AdminBodyProblem("file: give a plain file name ending in .json (letters, digits, . _ -), no folders")
        }
        guard let document = fields.raw("document") else { throw AdminBodyProblem("document: missing; give the fixture file's content") }
        self.file = file
        self.document = document
        overwrite = try fields.bool("overwrite", absent: false)
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("file", .string(file)), ("document", document), ("overwrite", .bool(overwrite))]) }

    /// `name.json` with letters, digits, `.`, `_`, `-` only, not hidden: never a path.
    public static func isPlainName(_ name: String) -> Bool {
        name.hasSuffix(".json") && name.count > 5 && name.count <= 128 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-" }
    }
}
