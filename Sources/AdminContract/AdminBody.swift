public import StubModel

/// A JSON body of the admin API, read and written by both sides from one declaration: the server
/// reads what a call sends and writes what it answers; the test kit writes what it sends and
/// reads what comes back. A body that does not read is refused naming the field and the fix.
public protocol AdminBody: Sendable {
    /// Reads the parsed body; throws naming the field that does not read.
    init(json: JSONValue) throws(AdminBodyProblem)
    /// The body as JSON.
    var json: JSONValue { get }
    /// Its shape, for clients in other languages (`stubd admin-spec`, docs/admin-api.openapi.json).
    static var schema: AdminSchema { get }
}

/// Why a body does not read: what is wrong, naming the field, and what a body looks like.
public struct AdminBodyProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problem, naming the field (`state: expected a string`).
    public let description: String

    /// A problem described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// No body: a call that sends nothing, or an answer the caller does not read.
public struct NoBody: AdminBody {
    /// Nothing.
    public init() {}
    /// Reads anything as nothing.
    public init(json: JSONValue) throws(AdminBodyProblem) {}
    /// Writes nothing (an empty object).
    public var json: JSONValue { .object([]) }
}

/// A body the contract passes through as JSON, for documents with a format of their own (fixture
/// files, collection items): their readers check them.
public struct JSONBody: AdminBody {
    /// The document.
    public let value: JSONValue
    /// Wraps `value`.
    public init(_ value: JSONValue) {
        self.value = value
    }
    /// Takes any JSON.
    public init(json: JSONValue) throws(AdminBodyProblem) {
        value = json
    }
    /// The document.
    public var json: JSONValue { value }
}

/// Typed access to a JSON object's members, each failure naming its field (used by every body).
public struct JSONFields: Sendable {
    private let value: JSONValue

    /// The members of `value`; not an object is refused with `usage`.
    public init(_ value: JSONValue, usage: String) throws(AdminBodyProblem) {
        guard case .object = value else { throw AdminBodyProblem(usage) }
        self.value = value
    }

    /// A string member.
    public func string(_ name: String) throws(AdminBodyProblem) -> String {
        guard case .string(let text)? = value[name] else { throw AdminBodyProblem("\(name): expected a string") }
        return text
    }

    /// A string member that may be absent.
    public func optionalString(_ name: String) throws(AdminBodyProblem) -> String? {
        switch value[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw AdminBodyProblem("\(name): expected a string")
        }
    }

    /// A whole-number member.
    public func int(_ name: String) throws(AdminBodyProblem) -> Int {
        guard case .number(let number)? = value[name], number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
            throw AdminBodyProblem("\(name): expected a whole number")
        }
        return Int(number)
    }

    /// A whole-number member that may be absent.
    public func optionalInt(_ name: String) throws(AdminBodyProblem) -> Int? {
        if value[name] == nil || value[name] == .null { return nil }
        return try int(name)
    }

    /// A number member.
    public func double(_ name: String) throws(AdminBodyProblem) -> Double {
        guard case .number(let number)? = value[name] else { throw AdminBodyProblem("\(name): expected a number") }
        return number
    }

    /// A true/false member (absent: `absent`).
    public func bool(_ name: String, absent: Bool? = nil) throws(AdminBodyProblem) -> Bool {
        switch value[name] {
        case .bool(let flag)?: return flag
        case nil: if let absent { return absent }
        default: break
        }
        throw AdminBodyProblem("\(name): expected true or false")
    }

    /// An array member.
    public func array(_ name: String) throws(AdminBodyProblem) -> [JSONValue] {
        guard case .array(let items)? = value[name] else { throw AdminBodyProblem("\(name): expected an array") }
        return items
    }

    /// A member of any kind, if present.
    public func raw(_ name: String) -> JSONValue? {
        value[name]
    }

    /// An array of strings.
    public func strings(_ name: String) throws(AdminBodyProblem) -> [String] {
        try array(name).map { item throws(AdminBodyProblem) -> String in
            guard case .string(let text) = item else { throw AdminBodyProblem("\(name): expected strings") }
            return text
        }
    }

    /// Every member name.
    public var names: [String] {
        if case .object(let members) = value { return members.map(\.key) }
        return []
    }
}

extension JSONValue {
    /// A whole number as JSON.
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
}
