import StubModel
import Recording
import StubdEngine

/// The decoded path must equal a literal path, or fit a template (`/users/{login}`).
package struct PathMatcher: RequestPartMatcher {
    let pattern: PathPattern
    /// The pattern as listings show it, computed once for near-miss ranking.
    let text: String

    /// For `.regex` and `.urlRegex` routes.
    private let regex: CompiledRegex?

    init(_ pattern: PathPattern) {
        self.pattern = pattern
        self.text = pattern.description
        switch pattern {
        case .regex(let expression), .urlRegex(let expression): regex = CompiledRegex(expression)
        default: regex = nil
        }
    }

    package func matches(_ request: RequestView) -> Bool {
        switch pattern {
        case .literal(let expected): return expected == request.path
        case .template(let template): return template.matches(request.path)
        case .regex: return regex?.matchesWhole(request.path.description, budget: request.regexBudget) ?? false
        case .urlRegex: return regex?.matchesWhole(Self.url(request), budget: request.regexBudget) ?? false
        }
    }

    /// The path and query as sent, for `.urlRegex`.
    static func url(_ request: RequestView) -> String {
        guard let query = request.request.rawQuery else { return request.request.rawPath }
        return request.request.rawPath + "?" + query
    }

    /// Four per edited character of the decoded path (capped), so a near path outranks a far one.
    /// A pattern is compared by its literal start (`/find\?q=` of `/find\?q=[a-z]+`), with the
    /// URL as sent for a URL pattern.
    func distance(_ request: RequestView) -> Int {
        if matches(request) { return 0 }
        switch pattern {
        case .regex(let expression):
            return EditDistance.between(request.path.description, Self.literalStart(expression), cap: 64) * 4
        case .urlRegex(let expression):
            return EditDistance.between(Self.url(request), Self.literalStart(expression), cap: 64) * 4
        default:
            return EditDistance.between(request.path.description, text, cap: 64) * 4
        }
    }

    /// The text a regular expression starts with before its first operator, escapes undone.
    static func literalStart(_ expression: String) -> String {
        var out = ""
        var escaped = false
        for character in expression.drop(while: { $0 == "^" }) {
            if escaped {
                guard character.isPunctuation || character.isSymbol else { break }  // \d, \w…: an operator
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if ".[](){}*+?|^$".contains(character) {
                break
            } else {
                out.append(character)
            }
        }
        return out
    }

    func explain(_ request: RequestView) -> [String] {
        let path = request.path
        switch pattern {
        case .literal(let expected):
            if expected == path { return [] }
            if expected.segments.count == path.segments.count {
                var out: [String] = []
                for (index, pair) in zip(expected.segments, path.segments).enumerated() where pair.0 != pair.1 {
                    out.append("path segment \(index + 1): expected \"\(pair.0)\", got \"\(pair.1)\"")
                }
                if expected.trailingSlash != path.trailingSlash {
                    out.append(expected.trailingSlash ? "path: expected a trailing /" : "path: unexpected trailing /")
                }
                return out
            }
            return ["path: expected \(expected), got \(path)"]
        case .template(let template):
            return template.matches(path) ? [] : ["path: expected \(template), got \(path)"]
        case .regex(let expression):
            return matches(request) ? [] : ["path: expected to match /\(expression)/, got \(path)"]
        case .urlRegex(let expression):
            return matches(request) ? [] : ["url: expected to match /\(expression)/, got \(Self.url(request))"]
        }
    }
}

/// Levenshtein distance over Unicode scalars, stopped early at `cap` (near-miss ranking only).
enum EditDistance {
    static func between(_ a: String, _ b: String, cap: Int) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if abs(x.count - y.count) >= cap { return cap }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            current[0] = i
            var rowMinimum = i
            for j in stride(from: 1, through: y.count, by: 1) {
                let substitution = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum >= cap { return cap }
            swap(&previous, &current)
        }
        return min(x.isEmpty ? y.count : previous[y.count], cap)
    }
}
