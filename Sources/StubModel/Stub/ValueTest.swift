import Foundation

/// A regular expression compiled once per route (ICU syntax), matched against a whole value
/// within the request's `RegexBudget`. `NSRegularExpression` is immutable and safe to share between loops.
public struct CompiledRegex: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    private let regex: NSRegularExpression?

    /// The pattern compiled (one that does not compile matches nothing; the fixture reader refuses it).
    public init(_ pattern: String) {
        self.pattern = pattern
        self.regex = try? NSRegularExpression(pattern: pattern)
    }

    /// Whether the regex matches all of `text` (WireMock's `matches`: anchored at both ends),
    /// found within what is left of `budget`.
    public func matchesWhole(_ text: String, budget: RegexBudget) -> Bool {
        guard let regex else { return false }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = BoundedRegex.firstMatch(regex, in: text, options: [.anchored], range: range, budget: budget) else { return false }
        return match.range == range
    }
}

/// A `ValueMatch` ready to test values: its regex compiled once.
public struct ValueTest: Sendable {
    /// The match as the fixture wrote it.
    public let match: ValueMatch
    private let regex: CompiledRegex?

    /// The test of `match`.
    public init(_ match: ValueMatch) {
        self.match = match
        if case .matches(let pattern) = match { regex = CompiledRegex(pattern) } else { regex = nil }
    }

    /// Whether the values present under the name (none: absent) satisfy the match; with several
    /// values, one satisfying is enough.
    /// `budget` is asked for only by a regex (the request's is made on first use).
    public func accepts(_ values: [String], budget: @autoclosure () -> RegexBudget) -> Bool {
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
