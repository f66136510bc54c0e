import Foundation
import OpenAPIKit
import StubModel

/// A body made from a response's schema when the spec gives no example (Stripe's 468 operations):
/// deterministic — the same spec gives the same bodies — and valid against the schema: every
/// property (required ones first), an example, default or first enum value where the schema names
/// one, formats written as they are meant (`date-time`, `uuid`, `email`, `uri`…), bounds kept
/// (minimum, minLength, minItems), `allOf` merged, the first of `oneOf`/`anyOf`, `$ref`s followed,
/// and recursion cut at a depth: an optional property left out, a required one given the smallest
/// value its schema allows (`minimal`: required members only, `minItems` items, bounds kept), so
/// a body stays valid at any depth.
enum SchemaSample {
    /// How deep objects and arrays nest before optional parts are left out.
    static let maximumDepth = 6

    static func value(_ schema: JSONSchema, components: OpenAPIKit.OpenAPI.Components) -> JSONValue {
        sample(schema, components: components) ?? .null
    }

    /// Nil where only recursion could make a value (an optional property is then left out).
    static func sample(_ schema: JSONSchema, components: OpenAPIKit.OpenAPI.Components, depth: Int = 0, seen: Set<String> = []) -> JSONValue? {
        if let example = schema.examples.first ?? schema.defaultValue, let json = json(example) { return json }
        if let first = schema.allowedValues?.first, let json = json(first) { return json }
        switch schema.value {
        case .null: return .null
        case .boolean: return .bool(true)
        case .integer(_, let context):
            var number = context.minimum.map { $0.exclusive ? $0.value + 1 : $0.value } ?? 0
            if let maximum = context.maximum, number > maximum.value { number = maximum.value }
            if let multiple = context.multipleOf, multiple > 0, number % multiple != 0 { number += multiple - number % multiple }
            return .number(Double(number))
        case .number(_, let context):
            var number = context.minimum.map { $0.exclusive ? $0.value + 1 : $0.value } ?? 0
            if let maximum = context.maximum, number > maximum.value { number = maximum.value }
            return .number(number)
        case .string(let core, let context):
            return .string(string(core.format.rawValue, context))
        case .array(_, let context):
            guard let items = context.items else { return .array([]) }
            guard depth < maximumDepth, let item = sample(items, components: components, depth: depth + 1, seen: seen) else {
                return context.minItems == 0 ? .array([]) : minimal(schema, components: components, seen: seen)
            }
            return .array(Array(repeating: item, count: max(1, context.minItems)))
        case .object(_, let context):
            var members: [(key: String, value: JSONValue)] = []
            let required = Set(context.requiredProperties)
            let ordered = context.properties.filter { required.contains($0.key) } + context.properties.filter { !required.contains($0.key) }
            for (name, property) in ordered {
                let made = depth >= maximumDepth ? nil : sample(property, components: components, depth: depth + 1, seen: seen)
                if let made { members.append((name, made)) } else if required.contains(name) { members.append((name, minimal(property, components: components, seen: seen))) }
            }
            return .object(members)
        case .all(let parts, _):
            var members: [(key: String, value: JSONValue)] = []
            for part in parts {
                if case .object(let more)? = sample(part, components: components, depth: depth, seen: seen) {
                    for member in more where !members.contains(where: { $0.key == member.key }) { members.append(member) }
                }
            }
            return .object(members)
        case .one(let choices, _), .any(let choices, _):
            // The first choice that can be made without recursion.
            for choice in choices { if let made = sample(choice, components: components, depth: depth, seen: seen) { return made } }
            return nil
        case .not: return .null
        case .reference(let reference, _):
            let name = reference.absoluteString
            guard !seen.contains(name), depth < maximumDepth, let found = try? components.lookup(reference) else { return nil }
            return sample(found, components: components, depth: depth + 1, seen: seen.union([name]))
        case .fragment: return .object([])
        }
    }

    /// Refs a minimal value may follow, one inside another, before it gives up (a schema whose
    /// required members recurse forever has no finite value: null then).
    static let minimalDepth = 64

    /// The smallest value `schema` allows: an object with its required members only, an array with
    /// `minItems` minimal items, the lower bounds of numbers, the shortest valid text. What a
    /// required member gets where `sample` stopped (the depth limit, a recursion), so the body stays
    /// valid against its schema.
    static func minimal(_ schema: JSONSchema, components: OpenAPIKit.OpenAPI.Components, seen: Set<String> = [], depth: Int = 0) -> JSONValue {
        if let example = schema.examples.first ?? schema.defaultValue, let json = json(example) { return json }
        if let first = schema.allowedValues?.first, let json = json(first) { return json }
        guard depth < minimalDepth else { return .null }
        switch schema.value {
        case .object(_, let context):
            return .object(context.properties.filter { context.requiredProperties.contains($0.key) }.map {
                ($0.key, minimal($0.value, components: components, seen: seen, depth: depth + 1))
            })
        case .array(_, let context):
            guard context.minItems > 0, let items = context.items else { return .array([]) }
            return .array(Array(repeating: minimal(items, components: components, seen: seen, depth: depth + 1), count: context.minItems))
        case .all(let parts, _):
            var members: [(key: String, value: JSONValue)] = []
            for part in parts {
                if case .object(let more) = minimal(part, components: components, seen: seen, depth: depth + 1) {
                    for member in more where !members.contains(where: { $0.key == member.key }) { members.append(member) }
                }
            }
            return .object(members)
        case .one(let choices, _), .any(let choices, _):
            // The first choice that does not lead back into a reference already being made.
            for choice in choices {
                if case .reference(let reference, _) = choice.value, seen.contains(reference.absoluteString) { continue }
                return minimal(choice, components: components, seen: seen, depth: depth + 1)
            }
            return choices.first.map { minimal($0, components: components, seen: seen, depth: depth + 1) } ?? .null
        case .reference(let reference, _):
            let name = reference.absoluteString
            guard !seen.contains(name) || depth < minimalDepth / 2, let found = try? components.lookup(reference) else { return .null }
            return minimal(found, components: components, seen: seen.union([name]), depth: depth + 1)
        default:
            return sample(schema, components: components, depth: maximumDepth, seen: seen) ?? .null
        }
    }

    /// Text valid for a string schema: its format, its length bounds, and its pattern — the pattern's
    /// literal start (`^acct_`, `^/v1/files/`) followed by the first of a few endings the whole pattern
    /// accepts (checked with the pattern itself).
    static func string(_ format: String, _ context: JSONSchema.StringContext) -> String {
        let plain = string(format: format, minLength: context.minLength, maxLength: context.maxLength)
        guard let pattern = context.pattern, let regex = try? NSRegularExpression(pattern: pattern) else { return plain }
        func fits(_ text: String) -> Bool {
            text.count >= context.minLength && context.maxLength.map { text.count <= $0 } != false
                && regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        if fits(plain) { return plain }
        var prefix = ""
        var rest = Substring(pattern.hasPrefix("^") ? String(pattern.dropFirst()) : pattern)
        while let next = rest.first {
            if next == "\\", let escaped = rest.dropFirst().first, "/.-_:".contains(escaped) {
                prefix.append(escaped)
                rest = rest.dropFirst(2)
            } else if next.isLetter || next.isNumber || "/_-:=@".contains(next) {
                prefix.append(next)
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        // A quantifier after the last literal character makes it optional or repeated: keep it out.
        if let next = rest.first, "*?{".contains(next), !prefix.isEmpty { prefix.removeLast() }
        for ending in ["example", "1", "a", "A", "0", "a1", "x", "", "123", "abc", "ABC", "a_1", "ex-1"] where fits(prefix + ending) {
            return prefix + ending
        }
        return prefix.isEmpty ? plain : prefix + "example"
    }

    /// Text for a string format, at least `minLength` long.
    static func string(format: String, minLength: Int, maxLength: Int?) -> String {
        var text: String
        switch format {
        case "date-time": text = "2024-01-02T03:04:05Z"
        case "date": text = "2024-01-02"
        case "time": text = "03:04:05Z"
        case "uuid": text = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "email": text = "user@example.com"
        case "uri", "url": text = "https://example.com/"
        case "hostname": text = "example.com"
        case "ipv4": text = "192.0.2.1"
        case "ipv6": text = "2001:db8::1"
        case "byte": text = "c3R1YmQ="
        case "binary": text = ""
        default: text = "string"
        }
        if text.count < minLength { text += String(repeating: "x", count: minLength - text.count) }
        if let maxLength, text.count > maxLength { text = String(text.prefix(maxLength)) }
        return text
    }

    static func json(_ value: AnyCodable) -> JSONValue? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else { return nil }
        return try? JSONParser.parse([UInt8](data))
    }
}
