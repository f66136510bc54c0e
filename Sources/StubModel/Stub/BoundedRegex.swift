public import Foundation

/// Regular expression matches that give up: ICU backtracks without bound (`(a+)+$` on forty
/// `a`s and a `!` held a loop for seconds) and the text comes from the request. ICU reports
/// progress while it matches (`.reportProgress`); a match stops when the `RegexBudget` it draws on
/// is spent, and then counts as no match.
public enum BoundedRegex {
    /// The first match of `regex` in `range` of `text`, or nil — also when `budget` ran out.
    public static func firstMatch(_ regex: NSRegularExpression, in text: String, options: NSRegularExpression.MatchingOptions = [],
                                  range: NSRange, budget: RegexBudget) -> NSTextCheckingResult? {
        guard budget.remainingNanoseconds > 0 else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start &+ budget.remainingNanoseconds
        var found: NSTextCheckingResult?
        regex.enumerateMatches(in: text, options: options.union(.reportProgress), range: range) { result, _, stop in
            if let result {
                found = result
                stop.pointee = true
            } else if DispatchTime.now().uptimeNanoseconds > deadline {
                stop.pointee = true
            }
        }
        let spent = DispatchTime.now().uptimeNanoseconds &- start
        budget.remainingNanoseconds -= min(spent, budget.remainingNanoseconds)
        return found
    }
}

/// The time one request (or one WebSocket message) may spend in regular expressions, across
/// every route that tries it — matching, ranking near misses, explaining them. Confined to the
/// thread of the lookup that made it.
public final class RegexBudget {
    /// What a request gets: half the 100 ms a request may hold a loop.
    public static let perRequestNanoseconds: UInt64 = 50_000_000

    /// What is left.
    public fileprivate(set) var remainingNanoseconds: UInt64

    /// A budget of `nanoseconds` (50 ms per request by default).
    public init(nanoseconds: UInt64 = RegexBudget.perRequestNanoseconds) {
        remainingNanoseconds = nanoseconds
    }
}
