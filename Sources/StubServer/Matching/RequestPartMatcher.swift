/// Matches one part of a request (method, path, query, a header, the body) against what a route
/// requires.
///
/// `matches` is the hit path: cheap, no strings built. `distance` (0 when matching, larger the
/// further off) ranks near misses; `explain` says in words what differs, and runs only for the
/// few routes a 404 reports. New kinds of matching (`contains`, regular expressions, partial
/// JSON) are new conforming values, not new branches in one function.
protocol RequestPartMatcher: Sendable {
    /// Whether the request satisfies this part.
    func matches(_ request: RequestView) -> Bool
    /// 0 when matching; otherwise a positive cost, comparable across parts.
    func distance(_ request: RequestView) -> Int
    /// One sentence per difference (`query page: expected "2", got "3"`); empty when matching.
    func explain(_ request: RequestView) -> [String]
}

extension RequestPartMatcher {
    /// By default every difference costs one.
    func distance(_ request: RequestView) -> Int {
        matches(request) ? 0 : max(1, explain(request).count)
    }
}
