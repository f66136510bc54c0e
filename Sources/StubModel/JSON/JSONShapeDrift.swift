/// How a live JSON answer's shape drifted from a fixture's: fields removed, added, retyped or now
/// null, by path (`$.items[].price`). Values are never reported — only paths and kinds — so a
/// report of a live body shows no secret. Arrays are compared by the union of their elements'
/// shapes (`[]` in the path).
public enum JSONShapeDrift {
    /// One difference.
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        /// The kinds of drift.
        public enum Kind: String, Sendable {
            case removed, added, retyped, nowNull = "now null"
        }
        /// Which.
        public let kind: Kind
        /// Where: `$.user.name`, `$.items[].price`.
        public let path: String
        /// The fixture's kind and the live one's (`number` → `string`).
        public let was: String?
        /// What the live body has there now, when it differs.
        public let now: String?

        /// `$.items[].price: retyped, number → string`.
        public var description: String {
            switch kind {
            case .removed: return "\(path): removed (was \(was ?? "?"))"
            case .added: return "\(path): added (\(now ?? "?"))"
            case .retyped: return "\(path): retyped, \(was ?? "?") → \(now ?? "?")"
            case .nowNull: return "\(path): now null (was \(was ?? "?"))"
            }
        }
    }

    /// The changes from `fixture` to `live`, at most `limit`.
    public static func between(fixture: JSONValue, live: JSONValue, limit: Int = 50) -> [Change] {
        var out: [Change] = []
        walk(fixture, live, "$", &out, limit)
        return out
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The union of an array's elements' members (the first value seen for each name).
    private static func merged(_ items: [JSONValue]) -> JSONValue? {
        guard let first = items.first else { return nil }
        guard case .object = first else { return first }
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        for item in items {
            guard case .object(let fields) = item else { continue }
            for field in fields where !seen.contains(field.key) {
                seen.insert(field.key)
                members.append(field)
            }
        }
        return .object(members)
    }

    private static func walk(_ fixture: JSONValue, _ live: JSONValue, _ path: String, _ out: inout [Change], _ limit: Int) {
        guard out.count < limit else { return }
        switch (fixture, live) {
        case (.null, .null):
            return
        case (_, .null):
            out.append(Change(kind: .nowNull, path: path, was: kind(fixture), now: "null"))
        case (.null, _):
            return  // a fixture's null says nothing of the type
        case let (.object(want), .object(have)):
            let live = Dictionary(have.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            let names = Set(want.map(\.key))
            for member in want {
                if let value = live[member.key] {
                    walk(member.value, value, "\(path).\(member.key)", &out, limit)
                } else if out.count < limit {
                    out.append(Change(kind: .removed, path: "\(path).\(member.key)", was: kind(member.value), now: nil))
                }
            }
            for member in have where !names.contains(member.key) && out.count < limit {
                out.append(Change(kind: .added, path: "\(path).\(member.key)", was: nil, now: kind(member.value)))
            }
        case let (.array(want), .array(have)):
            guard let wanted = merged(want), let got = merged(have) else { return }
            walk(wanted, got, "\(path)[]", &out, limit)
        default:
            if kind(fixture) != kind(live) {
                out.append(Change(kind: .retyped, path: path, was: kind(fixture), now: kind(live)))
            }
        }
    }
}
