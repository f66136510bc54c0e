/// The helpers a template may call — WireMock's and Handlebars' that real suites use — each with
/// the arguments it takes, checked when the template is read so a typo is a fixture problem and not
/// a silent empty string.
public enum TemplateHelper: String, Sendable, Hashable, CaseIterable {
    // Comparisons and logic (Handlebars' ConditionalHelpers).
    case eq, neq, ne, gt, gte, lt, lte, and, or, not
    // Strings (Handlebars' StringHelpers, WireMock's).
    case upper, lower, capitalize, trim, substring, replace, join, split, size, contains
    // Numbers and dates (WireMock's).
    case math, date, formatDate, parseDate
    /// `jsonPath VALUE '$.x'` on any value (a variable, a subexpression): what the request's
    /// `jsonPath request.body '$.x'` does, for values inside blocks.
    case jsonPath

    /// How many positional arguments it takes (at least, at most).
    var arity: ClosedRange<Int> {
        switch self {
        case .eq, .neq, .ne, .gt, .gte, .lt, .lte: return 2...2
        case .and, .or: return 1...16
        case .not, .upper, .lower, .capitalize, .trim, .size, .parseDate: return 1...1
        case .date, .formatDate: return 1...2
        case .substring: return 2...3
        case .replace, .math: return 3...3
        case .join: return 2...2
        case .split, .contains, .jsonPath: return 2...2
        }
    }

    /// Whether it is a condition (usable as a block: `{{#eq a b}}…{{/eq}}`).
    var isCondition: Bool {
        switch self {
        case .eq, .neq, .ne, .gt, .gte, .lt, .lte, .and, .or, .not, .contains: return true
        default: return false
        }
    }

    /// Every helper name, for problems.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
