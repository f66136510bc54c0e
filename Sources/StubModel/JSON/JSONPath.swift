import Foundation

/// The JSONPath forms mock suites use in `matchesJsonPath` (WireMock's body matcher, Jayway's
/// syntax): `$.a.b`, `$['a']`, `$.list[0]`, `$.list[*]`, `$.*`, `$..name`, and one filter per
/// step, `[?(@.field == 'x')]` with `==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /regex/i` or a bare `[?(@.field)]`
/// for presence. Parsed once when the table is built; `select` walks a parsed body.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    private let steps: [Step]

    private enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case wildcard
        case descendants(String)
        case filter(path: [String], comparison: Comparison?)
    }

    private struct Comparison: Sendable, Hashable {
        let op: String
        let literal: JSONValue
    }

    /// Why an expression is not in the supported subset.
    public struct Problem: Error, Sendable, Equatable {
        /// What to change.
        public let message: String

        /// A problem saying `message`.
        public init(message: String) { self.message = message }
    }

    /// The path as written.
    public var description: String { text }

    /// Parses `text`; the problem names the position and what is supported.
    public static func parse(_ text: String) -> Result<JSONPath, Problem> {
        var scanner = Scanner(Array(text.unicodeScalars))
        guard scanner.take("$") else { return .failure(Problem(message: "must start with $ (e.g. $.name)")) }
        var steps: [Step] = []
        while !scanner.atEnd {
            if scanner.take("..") {
                guard let name = scanner.name() else { return .failure(Problem(message: "expected a name after .. at \(scanner.position)")) }
                steps.append(.descendants(name))
            } else if scanner.take(".") {
                if scanner.take("*") { steps.append(.wildcard); continue }
                // `$.items.[1]`, as Jayway (WireMock's) reads it: the dot before a subscript is optional.
                if !scanner.atEnd, scanner.characters[scanner.position] == "[" { continue }
                guard let name = scanner.name() else { return .failure(Problem(message: "expected a name after . at \(scanner.position)")) }
                steps.append(.member(name))
            } else if scanner.take("[") {
                if scanner.take("*]") { steps.append(.wildcard); continue }
                if scanner.take("?(") {
                    guard let filter = scanner.filter() else {
                        return .failure(Problem(message: "unsupported filter at \(scanner.position); use [?(@.field == 'value')], [?(@.field =~ /regex/)] or [?(@.field)]"))
                    }
                    steps.append(.filter(path: filter.path, comparison: filter.op.map { Comparison(op: $0, literal: filter.literal!) }))
                } else if let quoted = scanner.quoted() {
                    guard scanner.take("]") else { return .failure(Problem(message: "expected ] at \(scanner.position)")) }
                    steps.append(.member(quoted))
                } else if let number = scanner.integer() {
                    guard scanner.take("]") else { return .failure(Problem(message: "expected ] at \(scanner.position)")) }
                    steps.append(.index(number))
                } else {
                    return .failure(Problem(message: "unsupported subscript at \(scanner.position); use ['name'], [0], [*] or [?(@.field == 'value')]"))
                }
            } else {
                return .failure(Problem(message: "unexpected character at \(scanner.position); steps are .name, ['name'], [0], [*], ..name or [?(…)]"))
            }
        }
        return .success(JSONPath(text: text, steps: steps))
    }

    /// Whether the expression names one place (only `.name` and `[n]` steps): WireMock's
    /// `jsonPath` gives that value, not a list.
    public var isDefinite: Bool {
        steps.allSatisfy { step in
            switch step {
            case .member, .index: return true
            default: return false
            }
        }
    }

    /// The values the expression selects in `document` (empty when nothing matches). `=~`
    /// filters draw on `regexBudget` (a request's, shared with its other matchers), else on a
    /// budget of their own.
    public func select(in document: JSONValue, regexBudget: @autoclosure () -> RegexBudget = RegexBudget()) -> [JSONValue] {
        var current = [document]
        // Asked for only by a path with a `=~` filter (a request's budget is made on first use).
        let budget: RegexBudget? = filtersByRegex ? regexBudget() : nil
        for step in steps {
            current = current.flatMap { Self.apply(step, to: $0, budget: budget) }
            if current.isEmpty { break }
        }
        return current
    }

    /// Whether a step filters with `=~`.
    private var filtersByRegex: Bool {
        steps.contains { step in
            if case .filter(_, let comparison?) = step { return comparison.op == "=~" }
            return false
        }
    }

    private static func apply(_ step: Step, to value: JSONValue, budget: RegexBudget?) -> [JSONValue] {
        switch step {
        case .member(let name):
            return value[name].map { [$0] } ?? []
        case .index(let index):
            guard case .array(let items) = value else { return [] }
            let position = index < 0 ? items.count + index : index
            return items.indices.contains(position) ? [items[position]] : []
        case .wildcard:
            switch value {
            case .array(let items): return items
            case .object(let members): return members.map(\.value)
            default: return []
            }
        case .descendants(let name):
            var found: [JSONValue] = []
            func walk(_ node: JSONValue) {
                switch node {
                case .object(let members):
                    for member in members {
                        if member.key == name { found.append(member.value) }
                        walk(member.value)
                    }
                case .array(let items): items.forEach(walk)
                default: break
                }
            }
            walk(value)
            return found
        case .filter(let path, let comparison):
            let candidates: [JSONValue]
            switch value {
            case .array(let items): candidates = items
            case .object: candidates = [value]
            default: return []
            }
            // A pattern is compiled once per step, not once per candidate.
            var regex: NSRegularExpression?
            if let comparison, comparison.op == "=~", case .string(let pattern) = comparison.literal {
                regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
            }
            return candidates.filter { candidate in
                var node: JSONValue? = candidate
                for name in path { node = node?[name] }
                guard let node else { return false }
                guard let comparison else { return true }
                return compare(node, comparison.op, comparison.literal, regex: regex, budget: budget)
            }
        }
    }

    private static func compare(_ value: JSONValue, _ op: String, _ literal: JSONValue, regex: NSRegularExpression?, budget: RegexBudget?) -> Bool {
        if op == "=~" {
            guard let regex, let budget else { return false }
            let text: String
            switch value {
            case .string(let string): text = string
            case .number, .bool: text = JSONWriter.write(value, pretty: false)
            default: return false
            }
            return BoundedRegex.firstMatch(regex, in: text, range: NSRange(text.startIndex..., in: text), budget: budget) != nil
        }
        if case .number(let left) = value, case .number(let right) = literal {
            switch op {
            case "==": return left == right
            case "!=": return left != right
            case "<": return left < right
            case "<=": return left <= right
            case ">": return left > right
            default: return left >= right
            }
        }
        switch op {
        case "==": return value == literal
        case "!=": return value != literal
        default:
            if case .string(let left) = value, case .string(let right) = literal {
                switch op {
                case "<": return left < right
                case "<=": return left <= right
                case ">": return left > right
                default: return left >= right
                }
            }
            return false
        }
    }

    /// A cursor over the expression's characters.
    private struct Scanner {
        let characters: [Unicode.Scalar]
        var position = 0

        init(_ characters: [Unicode.Scalar]) { self.characters = characters }

        var atEnd: Bool { position >= characters.count }

        mutating func skipSpace() { while !atEnd && characters[position] == " " { position += 1 } }

        mutating func take(_ text: String) -> Bool {
            let scalars = Array(text.unicodeScalars)
            guard position + scalars.count <= characters.count, Array(characters[position..<position + scalars.count]) == scalars else { return false }
            position += scalars.count
            return true
        }

        mutating func name() -> String? {
            let start = position
            while !atEnd, characters[position].properties.isAlphabetic || ("0"..."9").contains(characters[position])
                    || characters[position] == "_" || characters[position] == "-" || characters[position] == "$" {
                position += 1
            }
            return position > start ? String(String.UnicodeScalarView(characters[start..<position])) : nil
        }

        mutating func quoted() -> String? {
            guard !atEnd, characters[position] == "'" || characters[position] == "\"" else { return nil }
            let quote = characters[position]
            var end = position + 1
            while end < characters.count && characters[end] != quote { end += 1 }
            guard end < characters.count else { return nil }
            let text = String(String.UnicodeScalarView(characters[(position + 1)..<end]))
            position = end + 1
            return text
        }

        mutating func integer() -> Int? {
            let start = position
            if !atEnd && characters[position] == "-" { position += 1 }
            while !atEnd && ("0"..."9").contains(characters[position]) { position += 1 }
            guard let number = Int(String(String.UnicodeScalarView(characters[start..<position]))) else { position = start; return nil }
            return number
        }

        /// `@.a.b OP literal)]` or `@.a)]`, after `[?(`.
        mutating func filter() -> (path: [String], op: String?, literal: JSONValue?)? {
            skipSpace()
            guard take("@") else { return nil }
            var path: [String] = []
            while take(".") {
                guard let name = name() else { return nil }
                path.append(name)
            }
            skipSpace()
            var op: String?
            var literal: JSONValue?
            for candidate in ["=~", "==", "!=", "<=", ">=", "<", ">"] where take(candidate) {
                op = candidate
                break
            }
            if op == "=~" {
                // Jayway's regular expression literal: `/pattern/` with an optional `i` flag; it
                // matches the whole value.
                skipSpace()
                guard take("/") else { return nil }
                var pattern = ""
                while !atEnd, characters[position] != "/" {
                    if characters[position] == "\\", position + 1 < characters.count, characters[position + 1] == "/" { position += 1 }
                    pattern.unicodeScalars.append(characters[position])
                    position += 1
                }
                guard take("/") else { return nil }
                if take("i") { pattern = "(?i)" + pattern }
                guard (try? NSRegularExpression(pattern: pattern)) != nil else { return nil }
                literal = .string(pattern)
                skipSpace()
            } else if op != nil {
                skipSpace()
                if let text = quoted() {
                    literal = .string(text)
                } else if take("true") {
                    literal = .bool(true)
                } else if take("false") {
                    literal = .bool(false)
                } else if take("null") {
                    literal = .null
                } else {
                    let start = position
                    while !atEnd, "-+.eE0123456789".unicodeScalars.contains(characters[position]) { position += 1 }
                    guard let number = Double(String(String.UnicodeScalarView(characters[start..<position]))) else { return nil }
                    literal = .number(number)
                }
                skipSpace()
            }
            guard take(")]") else { return nil }
            return (path, op, literal)
        }
    }
}
