package import StubModel
import Recording
import StubdEngine

/// The matchers a route's request pattern compiles to, one per request part.
///
/// Lookup selects candidates by method and path (hash or trie) and then asks only the remaining
/// parts (`matchesBeyondPath`); near-miss ranking and reports ask every part.
package struct RouteMatchers: Sendable {
    let method: MethodMatcher
    package let path: PathMatcher
    /// The query rule: always there, since a pattern without one still requires a request
    /// without query pairs; held as itself so the hit path copies no existential.
    private let query: QueryMatcher
    /// One matcher per other `RequestPart`, in the pattern's (report) order.
    private let others: [any RequestPartMatcher]
    /// Where the query rule stands among `others` in a report.
    private let queryPosition: Int

    package init(_ pattern: RequestPattern) {
        method = MethodMatcher(method: pattern.method)
        path = PathMatcher(pattern.path)
        query = QueryMatcher(pattern.query)
        others = pattern.parts.compactMap { part -> (any RequestPartMatcher)? in
            switch part {
            case .pathExact(let path): ExactPathMatcher(path)
            case .host(let host): HostMatcher(host: host)
            case .query: nil
            case .header(let header): MediaTypeMatcher(name: header.name, value: header.value) ?? HeaderMatcher(name: header.name, value: header.value)
            case .headerMatch(let header): NamedValueMatcher(header, source: .header)
            case .cookie(let cookie): NamedValueMatcher(cookie, source: .cookie)
            case .graphQL(let operation): GraphQLMatcher(operation)
            case .body(let rule): BodyMatcher(pattern: rule.match, anyValueFor: rule.anyValueFor, jsonOptions: rule.jsonOptions)
            }
        }
        queryPosition = pattern.parts.count { $0.kind < .query }
    }

    /// Everything beyond method and path: what the index has not already checked.
    package func matchesBeyondPath(_ request: RequestView) -> Bool {
        guard query.matches(request) else { return false }
        for part in others where !part.matches(request) { return false }
        return true
    }

    /// Every part beyond method and path, in report order.
    private var parts: [any RequestPartMatcher] {
        var parts = others
        parts.insert(query, at: queryPosition)
        return parts
    }

    /// Method and path only: the cheap first stage of near-miss ranking.
    package func addressDistance(_ request: RequestView) -> Int {
        method.distance(request) + path.distance(request)
    }

    /// Query, headers and body: the second stage, for the few routes that can still make the cut.
    package func remainingDistance(_ request: RequestView) -> Int {
        parts.reduce(0) { $0 + $1.distance(request) }
    }

    /// Every difference, in the order a report lists them: method, path, query, headers, body.
    package func explain(_ request: RequestView) -> [String] {
        // The `anyOtherQuery` fix is named only for a route on the request's method and path:
        // on another route it is noise beside the difference that matters.
        let onPath = method.matches(request) && path.matches(request)
        var rest = others.map { $0.explain(request) }
        rest.insert(query.explain(request, suggestingAnyOtherQuery: onPath), at: queryPosition)
        return method.explain(request) + path.explain(request) + rest.flatMap { $0 }
    }
}
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
/// The request method must be exactly this (`GET`); HEAD falls back to GET routes in lookup.
struct MethodMatcher: RequestPartMatcher {
    let method: String

    func matches(_ request: RequestView) -> Bool { request.request.method == method }

    /// A wrong method weighs as much as two characters of path: a route on the right path with
    /// another method is usually the one the client meant.
    func distance(_ request: RequestView) -> Int { matches(request) ? 0 : 8 }

    func explain(_ request: RequestView) -> [String] {
        matches(request) ? [] : ["method: expected \(method), got \(request.request.method)"]
    }
}

/// A path compared as sent (`"pathExact"`): WireMock's `url`/`urlPath` equality, where
/// `/top-authors//` is not `/top-authors/`. The route is found by its segments first; this part
/// then requires the bytes.
struct ExactPathMatcher: RequestPartMatcher {
    let path: String

    init(_ path: String) { self.path = path }

    func matches(_ request: RequestView) -> Bool { request.request.rawPath == path }

    func explain(_ request: RequestView) -> [String] {
        matches(request) ? [] : ["path as sent: expected \(path), got \(request.request.rawPath) (this route compares the path byte for byte: repeated slashes and escapes count, as WireMock's url does)"]
    }
}
