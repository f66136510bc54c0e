import Foundation
import StubModel

/// A regular expression compiled once per route (ICU syntax), matched against a whole value
/// within the request's `RegexBudget`. `NSRegularExpression` is immutable and safe to share between loops.
struct CompiledRegex: @unchecked Sendable {
    let pattern: String
    private let regex: NSRegularExpression?

    init(_ pattern: String) {
        self.pattern = pattern
        self.regex = try? NSRegularExpression(pattern: pattern)
    }

    /// Whether the regex matches all of `text` (WireMock's `matches`: anchored at both ends),
    /// found within what is left of `budget`.
    func matchesWhole(_ text: String, budget: RegexBudget) -> Bool {
        guard let regex else { return false }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = BoundedRegex.firstMatch(regex, in: text, options: [.anchored], range: range, budget: budget) else { return false }
        return match.range == range
    }
}

/// A `ValueMatch` ready to test values: its regex compiled once.
struct ValueTest: Sendable {
    let match: ValueMatch
    private let regex: CompiledRegex?

    init(_ match: ValueMatch) {
        self.match = match
        if case .matches(let pattern) = match { regex = CompiledRegex(pattern) } else { regex = nil }
    }

    /// Whether the values present under the name (none: absent) satisfy the match; with several
    /// values, one satisfying is enough.
    /// `budget` is asked for only by a regex (the request's is made on first use).
    func accepts(_ values: [String], budget: @autoclosure () -> RegexBudget) -> Bool {
        switch match {
        case .absent: return values.isEmpty
        case .equalTo(let text, let caseInsensitive):
            return values.contains { caseInsensitive ? $0.lowercased() == text.lowercased() : $0 == text }
        case .contains(let text): return values.contains { $0.contains(text) }
        case .matches:
            let budget = budget()
            return values.contains { regex?.matchesWhole($0, budget: budget) ?? false }
        }
    }
}

/// A header or cookie that must satisfy a `ValueMatch` (`{"contains": …}`, `{"absent": true}`, …).
struct NamedValueMatcher: RequestPartMatcher {
    enum Source { case header, cookie }
    let name: String
    let source: Source
    let test: ValueTest

    init(_ named: NamedMatch, source: Source) {
        self.name = named.name
        self.source = source
        self.test = ValueTest(named.match)
    }

    func values(_ request: RequestView) -> [String] {
        switch source {
        case .header:
            return request.request.headers.filter { $0.name.equalsIgnoringCase(name) }.map(\.value)
        case .cookie:
            return request.cookies.filter { $0.name == name }.map(\.value)
        }
    }

    func matches(_ request: RequestView) -> Bool { test.accepts(values(request), budget: request.regexBudget) }

    func explain(_ request: RequestView) -> [String] {
        let found = values(request)
        guard !test.accepts(found, budget: request.regexBudget) else { return [] }
        let label = source == .header ? "header" : "cookie"
        let shown = found.first.map { "\"\(request.redactor.value($0, named: name))\"" } ?? "missing"
        return ["\(label) \(name): expected \(test.match), got \(shown)"]
    }
}
