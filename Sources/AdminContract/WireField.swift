public import StubModel

/// One member of an admin body as it crosses the wire — its JSON name, the Swift property that
/// holds it and what the schema says of it — so that reading, writing and the published schema
/// (and from that, the kits' declarations) come from one line instead of five places to keep in
/// step. A body lists its members once, in a `WireTable`.
public struct WireField<Body>: Sendable {
    /// The member's JSON name.
    public let name: String
    /// Its shape and description in `stubd admin-spec`.
    public let schema: AdminSchema
    /// Whether a body without it is refused (and the schema lists it as required).
    public let isRequired: Bool
    let write: @Sendable (Body) -> JSONValue?
    let read: @Sendable (JSONValue?, inout Body) throws(AdminBodyProblem) -> Void

    /// A member every body has: a missing or mistyped one is refused naming it.
    public static func member<Value: WireValue>(_ name: String, _ property: any WritableKeyPath<Body, Value> & Sendable,
                                                 _ about: String) -> WireField {
        WireField(name: name, schema: Value.schema(about), isRequired: true, write: { $0[keyPath: property].wire }) {
            (json: JSONValue?, body: inout Body) throws(AdminBodyProblem) in
            guard let json, let value = Value(wire: json) else { throw AdminBodyProblem("\(name): expected \(Value.expected)") }
            body[keyPath: property] = value
        }
    }

    /// A member that may be absent (`null` reads as absent); nil is not written.
    public static func member<Value: WireValue>(_ name: String, _ property: any WritableKeyPath<Body, Value?> & Sendable,
                                                 _ about: String) -> WireField {
        WireField(name: name, schema: Value.schema(about), isRequired: false, write: { $0[keyPath: property]?.wire }) {
            (json: JSONValue?, body: inout Body) throws(AdminBodyProblem) in
            guard let json, json != .null else { body[keyPath: property] = nil; return }
            guard let value = Value(wire: json) else { throw AdminBodyProblem("\(name): expected \(Value.expected)") }
            body[keyPath: property] = value
        }
    }

    /// A flag written only when true; absent reads as false.
    public static func flag(_ name: String, _ property: any WritableKeyPath<Body, Bool> & Sendable, _ about: String) -> WireField {
        WireField(name: name, schema: Bool.schema(about), isRequired: false, write: { $0[keyPath: property] ? .bool(true) : nil }) {
            (json: JSONValue?, body: inout Body) throws(AdminBodyProblem) in
            switch json {
            case nil, .null?: body[keyPath: property] = false
            case .bool(let flag)?: body[keyPath: property] = flag
            default: throw AdminBodyProblem("\(name): expected true or false")
            }
        }
    }
}

/// A body's members in the order they are written, with what the body is — everything its
/// `AdminBody` conformance needs.
public struct WireTable<Body>: Sendable {
    /// What the body is, as the schema describes it.
    public let about: String
    /// Its members, in the order written.
    public let fields: [WireField<Body>]

    /// The table of a body described by `about`.
    public init(_ about: String, _ fields: [WireField<Body>]) {
        self.about = about
        self.fields = fields
    }

    /// The body as JSON: every member in order, absent ones left out.
    public func json(_ body: Body) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(fields.count)
        for field in fields {
            if let value = field.write(body) { members.append((field.name, value)) }
        }
        return .object(members)
    }

    /// Reads every member of `json` into `body`; not an object is refused with `usage`, a member
    /// that does not read is refused naming it. Members the table does not list are ignored (a
    /// newer server's).
    public func read(_ json: JSONValue, into body: inout Body, usage: String) throws(AdminBodyProblem) {
        guard case .object(let members) = json else { throw AdminBodyProblem(usage) }
        for field in fields {
            try field.read(members.first { $0.key == field.name }?.value, &body)
        }
    }

    /// The body's schema: its members, the optional ones named.
    public var schema: AdminSchema {
        .object(fields.map { AdminSchema.Member($0.name, $0.schema) }, required: fields.filter(\.isRequired).map(\.name), about)
    }
}

/// A Swift type a `WireField` can carry: how it reads from and writes to JSON and its schema.
public protocol WireValue: Sendable {
    /// The value `json` holds, or nil when it is of another kind.
    init?(wire json: JSONValue)
    /// The value as JSON.
    var wire: JSONValue { get }
    /// What a refusal says was expected (`a string`).
    static var expected: String { get }
    /// Its schema, described by `about`.
    static func schema(_ about: String) -> AdminSchema
}

extension String: WireValue {
    /// A JSON string.
    public init?(wire json: JSONValue) {
        guard case .string(let text) = json else { return nil }
        self = text
    }
    /// A JSON string.
    public var wire: JSONValue { .string(self) }
    /// `a string`.
    public static var expected: String { "a string" }
    /// `type: string`.
    public static func schema(_ about: String) -> AdminSchema { .string(about) }
}

extension Int: WireValue {
    /// A JSON number that is whole and exact in a double (|n| < 2^53).
    public init?(wire json: JSONValue) {
        guard case .number(let number) = json, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else { return nil }
        self = Int(number)
    }
    /// A JSON number.
    public var wire: JSONValue { .number(Double(self)) }
    /// `a whole number`.
    public static var expected: String { "a whole number" }
    /// `type: integer`.
    public static func schema(_ about: String) -> AdminSchema { .integer(about) }
}

extension Double: WireValue {
    /// A JSON number.
    public init?(wire json: JSONValue) {
        guard case .number(let number) = json else { return nil }
        self = number
    }
    /// A JSON number.
    public var wire: JSONValue { .number(self) }
    /// `a number`.
    public static var expected: String { "a number" }
    /// `type: number`.
    public static func schema(_ about: String) -> AdminSchema { .number(about) }
}

extension Bool: WireValue {
    /// `true` or `false`.
    public init?(wire json: JSONValue) {
        guard case .bool(let flag) = json else { return nil }
        self = flag
    }
    /// `true` or `false`.
    public var wire: JSONValue { .bool(self) }
    /// `true or false`.
    public static var expected: String { "true or false" }
    /// `type: boolean`.
    public static func schema(_ about: String) -> AdminSchema { .boolean(about) }
}

extension JSONValue: WireValue {
    /// Any JSON value, as it is.
    public init?(wire json: JSONValue) { self = json }
    /// The value itself.
    public var wire: JSONValue { self }
    /// `any JSON value`.
    public static var expected: String { "any JSON value" }
    /// No constraint.
    public static func schema(_ about: String) -> AdminSchema { .anything(about) }
}

extension Array: WireValue where Element == NameValue {
    /// Header pairs: `[[name, value], …]`.
    public init?(wire json: JSONValue) {
        guard case .array(let pairs) = json else { return nil }
        var read: [NameValue] = []
        read.reserveCapacity(pairs.count)
        for pair in pairs {
            guard case .array(let parts) = pair, parts.count == 2, case .string(let name) = parts[0], case .string(let value) = parts[1] else {
                return nil
            }
            read.append(NameValue(name, value))
        }
        self = read
    }
    /// `[[name, value], …]`.
    public var wire: JSONValue { .array(map { .array([.string($0.name), .string($0.value)]) }) }
    /// `[name, value] pairs`.
    public static var expected: String { "[name, value] pairs" }
    /// An array of two-string arrays.
    public static func schema(_ about: String) -> AdminSchema { .array(.array(.string(""), "[name, value]"), about) }
}

/// An admin body made from its field table: the reader, the writer and the schema are the
/// table's, so a body declares its properties and its `wire` list and nothing else.
public protocol WireBody: AdminBody {
    /// An empty body, filled member by member.
    init()
    /// Its members, once.
    static var wire: WireTable<Self> { get }
}

extension WireBody {
    /// Reads the body from its JSON; a missing or mistyped member is refused naming it
    /// (`AdminBodyProblem`), something other than an object with what the body is.
    public init(json: JSONValue) throws(AdminBodyProblem) {
        self.init()
        try Self.wire.read(json, into: &self, usage: "expected \(Self.wire.about)")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { Self.wire.json(self) }

    /// Its schema, from the table.
    public static var schema: AdminSchema { wire.schema }
}
