/// A parsed JSON document. Objects keep their key order (for faithful export and readable
/// errors) but compare as unordered maps, numbers compare by value (`1` equals `1.0`), so two
/// bodies that mean the same thing are equal.
public enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// Any number, held as a Double (integers up to 2^53 are exact).
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, in document order; duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONValue)])

    /// The value for `key` in an object, else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short name of the value's kind, for error messages ("expected a string, found an array").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON text.
    public var description: String { JSONWriter.write(self, pretty: false) }

    /// Equal as JSON: objects compare their members in order, numbers by value.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            let right = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return a.allSatisfy { right[$0.key] == $0.value }
        default: return false
        }
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let members):
            hasher.combine(members.count)
            let keys = members.map { $0.key }.sorted()
            // Members with distinct keys: their values too, in any order (a sum of each pair's
            // hash), so objects that differ only in values do not collide — a route table of
            // 8,000 JSON bodies on one path hashed to one bucket without it.
            if zip(keys, keys.dropFirst()).allSatisfy({ $0 != $1 }) {
                var sum = 0
                for member in members {
                    var pair = Hasher()
                    pair.combine(member.key)
                    pair.combine(member.value)
                    sum &+= pair.finalize()
                }
                hasher.combine(sum)
            } else {
                hasher.combine(keys)
            }
        }
    }
}

extension JSONValue {
    /// The same value with every object's members sorted by key, at every depth: one spelling
    /// for values whose order carries no meaning (request body patterns), so files written from
    /// them are the same on every run.
    public var sortingKeys: JSONValue {
        switch self {
        case .object(let members):
            return .object(members.map { ($0.key, $0.value.sortingKeys) }.sorted { $0.key < $1.key })
        case .array(let elements):
            return .array(elements.map(\.sortingKeys))
        default:
            return self
        }
    }
}
