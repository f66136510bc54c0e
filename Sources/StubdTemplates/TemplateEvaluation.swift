package import Foundation
package import StubModel
import StubdState

/// One block's context while a template renders: what `this` is, and the names it adds
/// (`@index`, `@first`, `@last`, `@key`, block parameters).
package struct TemplateFrame {
    package let this: JSONValue
    package let locals: [String: JSONValue]
}

/// How many times a rendering's `#each` blocks may go round in all, whatever they loop over.
package enum TemplateLoops {
    package static let bound = 10_000
}

/// What templates compute, as Handlebars (WireMock's, Handlebars.java) computes it: truth, text,
/// lookups through the blocks' contexts, and the helpers. Pure functions of their arguments.
package enum TemplateEvaluation {
    /// Handlebars' truth: null, false, 0, "" and empty lists and objects are false.
    package static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text): return !text.isEmpty
        case .array(let items): return !items.isEmpty
        case .object(let members): return !members.isEmpty
        }
    }

    /// What a value writes: text as it is, whole numbers without a fraction, lists and objects as JSON.
    package static func text(of value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .string(let text): return text
        case .array, .object: return JSONWriter.write(value, pretty: false)
        }
    }

    /// Handlebars' HTML escaping of a `{{…}}` (WireMock's dialect).
    package static func escapeHTML(_ text: String) -> String { MarkupEscaping.escape(text) }

    /// What `#each` goes over: a list's items, an object's members (with their keys), one value.
    package static func items(of value: JSONValue) -> [(key: String?, value: JSONValue)] {
        switch value {
        case .null: return []
        case .array(let items): return items.map { (nil, $0) }
        case .object(let members): return members.map { ($0.key, $0.value) }
        default: return isTruthy(value) ? [(nil, value)] : []
        }
    }

    /// A variable: `@…` from the block it names; otherwise a block parameter or local, an
    /// `#assign`ed name, then a field of `this`, looked for from the innermost block outwards
    /// (Handlebars.java's context stack).
    package static func lookup(_ variable: TemplateVariable, frames given: [TemplateFrame], assigned: [String: JSONValue]) -> JSONValue {
        // The template's own context comes first (outside every block: `this` is nothing).
        let frames = [TemplateFrame(this: .null, locals: [:])] + given
        let start = max(0, frames.count - 1 - variable.up)
        guard let first = variable.path.first else { return frames[start].this }
        let rest = variable.path.dropFirst()
        for index in stride(from: start, through: 0, by: -1) {
            if let local = frames[index].locals[first] { return descend(local, rest) }
            if first.hasPrefix("@") { break }
        }
        if let value = assigned[first] { return descend(value, rest) }
        for index in stride(from: start, through: 0, by: -1) {
            let found = descend(frames[index].this, variable.path[...])
            if found != .null { return found }
        }
        return .null
    }

    private static func descend(_ value: JSONValue, _ path: ArraySlice<String>) -> JSONValue {
        var current = value
        for step in path {
            switch current {
            case .object: current = current[step] ?? .null
            case .array(let items):
                if let index = Int(step), items.indices.contains(index) { current = items[index] } else if step == "length" || step == "size" { current = .number(Double(items.count)) } else { return .null }
            case .string(let text) where step == "length":
                current = .number(Double(text.count))
            default: return .null
            }
        }
        return current
    }

    /// What a JSON path selects: the value of a path that names one place, a list otherwise.
    package static func selection(_ path: JSONPath, in document: JSONValue, regexBudget: RegexBudget) -> JSONValue {
        let found = path.select(in: document, regexBudget: regexBudget)
        if path.isDefinite { return found.first ?? .null }
        return .array(found)
    }

    package static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        case .bool(let flag): return flag ? 1 : 0
        default: return nil
        }
    }

    private static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        if let x = number(a), let y = number(b) {
            return x < y ? -1 : (x > y ? 1 : 0)
        }
        let x = text(of: a), y = text(of: b)
        return x < y ? -1 : (x > y ? 1 : 0)
    }

    private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = number(a), let y = number(b), case .number = a { return x == y }
        if let x = number(a), let y = number(b), case .number = b { return x == y }
        switch (a, b) {
        case (.array, _), (.object, _), (_, .array), (_, .object): return a == b
        default: return text(of: a) == text(of: b) && (a == .null) == (b == .null)
        }
    }

    /// A helper's result would pass the bytes the rendering may still produce: found while the
    /// helper builds it, so no helper ever holds more than the bound (`replace` with the request
    /// body as its replacement once asked for 32 GB).
    package struct OverBudget: Error {}

    /// A helper applied to evaluated arguments and options. `budget`: the bytes a result that
    /// grows past its arguments (`replace`, `join`) may reach; `regexBudget`: the rendering's
    /// time for `=~` filters.
    package static func apply(_ helper: TemplateHelper, _ arguments: [JSONValue], _ options: [String: JSONValue], now: Date,
                      budget: Int, regexBudget: RegexBudget) throws(OverBudget) -> JSONValue {
        let first = arguments.first ?? .null
        let second = arguments.count > 1 ? arguments[1] : .null
        switch helper {
        case .eq: return .bool(equal(first, second))
        case .neq, .ne: return .bool(!equal(first, second))
        case .gt: return .bool(compare(first, second) > 0)
        case .gte: return .bool(compare(first, second) >= 0)
        case .lt: return .bool(compare(first, second) < 0)
        case .lte: return .bool(compare(first, second) <= 0)
        case .and: return .bool(arguments.allSatisfy(isTruthy))
        case .or: return .bool(arguments.contains(where: isTruthy))
        case .not: return .bool(!isTruthy(first))
        case .contains:
            if case .array(let items) = first { return .bool(items.contains { equal($0, second) }) }
            return .bool(text(of: first).contains(text(of: second)))
        case .size:
            switch first {
            case .array(let items): return .number(Double(items.count))
            case .object(let members): return .number(Double(members.count))
            case .null: return .number(0)
            default: return .number(Double(text(of: first).count))
            }
        case .upper: return .string(text(of: first).uppercased())
        case .lower: return .string(text(of: first).lowercased())
        case .capitalize: return .string(capitalizeWords(text(of: first)))
        case .trim: return .string(text(of: first).trimmingCharacters(in: .whitespacesAndNewlines))
        case .substring:
            let characters = Array(text(of: first))
            // Positions may come from the request (`1e30`, NaN): clamped, never converted raw.
            let start = CheckedNumber.clamped(number(second) ?? 0, to: 0...characters.count)
            let end = arguments.count > 2 ? CheckedNumber.clamped(number(arguments[2]) ?? Double(characters.count), to: start...characters.count)
                : characters.count
            return .string(String(characters[start..<end]))
        case .replace:
            let find = text(of: second)
            guard !find.isEmpty else { return .string(text(of: first)) }
            guard let replaced = TextReplacement.replacing(find, with: text(of: arguments[2]), in: text(of: first), budget: budget) else {
                throw OverBudget()
            }
            return .string(replaced)
        case .join:
            // `join LIST ', '` (Handlebars) or `join ', ' LIST` (WireMock 3).
            let (list, separator): (JSONValue, JSONValue) = { if case .array = second { return (second, first) } else { return (first, second) } }()
            let glue = text(of: separator)
            var out = ""
            for (index, item) in items(of: list).enumerated() {
                let piece = text(of: item.value)
                guard out.utf8.count + piece.utf8.count + (index > 0 ? glue.utf8.count : 0) <= budget else { throw OverBudget() }
                if index > 0 { out += glue }
                out += piece
            }
            return .string(out)
        case .split:
            let separator = text(of: second)
            guard !separator.isEmpty else { return .array([.string(text(of: first))]) }
            return .array(text(of: first).components(separatedBy: separator).map { .string($0) })
        case .math:
            return math(first, text(of: second), arguments[2])
        case .parseDate:
            guard let date = DateText.parse(text(of: first), format: options["format"].map { text(of: $0) }) else { return .null }
            return .string(DateText.iso(date))
        case .date, .formatDate:
            let date = DateText.parse(text(of: first), format: nil) ?? now
            var format = NowFormat()
            if case .string(let pattern)? = options["format"] { format.pattern = pattern } else if arguments.count > 1 { format.pattern = text(of: second) }
            if case .string(let zone)? = options["timezone"] { format.timeZone = zone }
            if case .string(let offset)? = options["offset"], let parsed = NowFormat.parse(offset: offset) {
                format.offsetSeconds = parsed.seconds
                format.offsetMonths = parsed.months
            }
            return .string(Clock.format(date, format))
        case .jsonPath:
            guard case .success(let path) = JSONPath.parse(text(of: second)) else { return .null }
            let document: JSONValue
            switch first {
            case .object, .array: document = first
            default:
                guard let parsed = try? JSONParser.parse(Array(text(of: first).utf8)) else { return .null }
                document = parsed
            }
            return selection(path, in: document, regexBudget: regexBudget)
        }
    }

    /// Handlebars.java's `capitalize`: the first letter of each word upper-cased.
    private static func capitalizeWords(_ text: String) -> String {
        var out = ""
        var startOfWord = true
        for character in text {
            if character.isWhitespace {
                startOfWord = true
                out.append(character)
            } else if startOfWord {
                out += String(character).uppercased()
                startOfWord = false
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// WireMock's `math A 'op' B`: + - * / %; whole results without a fraction.
    private static func math(_ a: JSONValue, _ operation: String, _ b: JSONValue) -> JSONValue {
        guard let x = number(a), let y = number(b) else { return .null }
        switch operation {
        case "+": return .number(x + y)
        case "-": return .number(x - y)
        case "*": return .number(x * y)
        case "/": return y == 0 ? .null : .number(x / y)
        case "%": return y == 0 ? .null : .number(x.truncatingRemainder(dividingBy: y))
        default: return .null
        }
    }
}

/// Dates templates read and write: ISO 8601 (with or without fractions and zone), epoch
/// milliseconds, or a pattern given with `format=`.
package enum DateText {
    package static func parse(_ text: String, format: String?) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let format {
            if format == "epoch", let millis = Double(trimmed) { return Date(timeIntervalSince1970: millis / 1000) }
            if format == "unix", let seconds = Double(trimmed) { return Date(timeIntervalSince1970: seconds) }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter.date(from: trimmed)
        }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: trimmed) { return date }
        iso.formatOptions = [.withInternetDateTime]
        if let date = iso.date(from: trimmed) { return date }
        iso.formatOptions = [.withFullDate]
        return iso.date(from: trimmed)
    }

    package static func iso(_ date: Date) -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime]
        return iso.string(from: date)
    }
}
