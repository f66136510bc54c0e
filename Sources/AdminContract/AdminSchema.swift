public import StubModel

/// The shape of an admin body as JSON Schema (2020-12, the dialect OpenAPI 3.1 uses): every
/// `AdminBody` declares one beside its reader and writer, so `stubd admin-spec` can describe the
/// admin API to clients in other languages (docs/admin-api.openapi.json) from the same
/// declarations the server and the Swift kit use.
public indirect enum AdminSchema: Sendable {
    /// A string, with what it holds.
    case string(String)
    /// One fixed string.
    case constant(String)
    /// A whole number, with what it counts.
    case integer(String)
    /// A number.
    case number(String)
    /// true or false.
    case boolean(String)
    /// Any JSON value (a document with a format of its own, checked by its reader).
    case anything(String)
    /// An array of one kind of item.
    case array(AdminSchema, String)
    /// An object whose members are named; `required` lists those always present.
    case object([Member], required: [String], String)
    /// An object mapping any name to one kind of value.
    case map(AdminSchema, String)
    /// The value, or `null`.
    case nullable(AdminSchema)
    /// One of several shapes.
    case oneOf([AdminSchema], String)
    /// A body type's own schema, written once under `components/schemas/<name>` and referred to.
    case body(name: String, AdminSchema)

    /// One named member of an object.
    public struct Member: Sendable {
        /// The member's name.
        public let name: String
        /// Its shape.
        public let schema: AdminSchema

        /// `name: schema`.
        public init(_ name: String, _ schema: AdminSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// An object from `(name, schema)` pairs; `optional` names the members that may be absent.
    public static func object(_ description: String, _ members: KeyValuePairs<String, AdminSchema>, optional: Set<String> = []) -> AdminSchema {
        .object(members.map { Member($0.key, $0.value) }, required: members.map(\.key).filter { !optional.contains($0) }, description)
    }

    /// The schema of a body type, referred to by its name.
    public static func of<Body: AdminBody>(_ type: Body.Type) -> AdminSchema {
        .body(name: String(describing: type), Body.schema)
    }

    /// The schema as JSON; `.body` is written as a `$ref` into `components` (or inline when
    /// `components` is nil), and every body it meets is added there.
    public func json(components: inout [(name: String, schema: JSONValue)]?) -> JSONValue {
        switch self {
        case .string(let about): return Self.typed("string", about)
        case .constant(let text): return .object([("const", .string(text))])
        case .integer(let about): return Self.typed("integer", about)
        case .number(let about): return Self.typed("number", about)
        case .boolean(let about): return Self.typed("boolean", about)
        case .anything(let about): return .object([("description", .string(about))])
        case .array(let item, let about):
            return .object([("type", .string("array")), ("description", .string(about)), ("items", item.json(components: &components))])
        case .object(let members, let required, let about):
            var written: [(key: String, value: JSONValue)] = [("type", .string("object"))]
            if !about.isEmpty { written.append(("description", .string(about))) }
            written.append(("properties", .object(members.map { ($0.name, $0.schema.json(components: &components)) })))
            if !required.isEmpty { written.append(("required", .array(required.map { .string($0) }))) }
            return .object(written)
        case .map(let value, let about):
            return .object([("type", .string("object")), ("description", .string(about)), ("additionalProperties", value.json(components: &components))])
        case .nullable(let schema):
            return .object([("oneOf", .array([schema.json(components: &components), .object([("type", .string("null"))])]))])
        case .oneOf(let choices, let about):
            return .object([("description", .string(about)), ("oneOf", .array(choices.map { $0.json(components: &components) }))])
        case .body(let name, let schema):
            guard components != nil else { return schema.json(components: &components) }
            if components?.contains(where: { $0.name == name }) == false {
                components?.append((name, .null))  // claimed first: a body met again while writing refers to it
                let written = schema.json(components: &components)
                if let index = components?.firstIndex(where: { $0.name == name }) { components?[index].schema = written }
            }
            return .object([("$ref", .string("#/components/schemas/\(name)"))])
        }
    }

    private static func typed(_ type: String, _ about: String) -> JSONValue {
        about.isEmpty ? .object([("type", .string(type))]) : .object([("type", .string(type)), ("description", .string(about))])
    }
}
