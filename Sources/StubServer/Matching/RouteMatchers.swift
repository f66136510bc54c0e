import StubModel

/// The matchers a route's request pattern compiles to, one per request part.
///
/// Lookup selects candidates by method and path (hash or trie) and then asks only the remaining
/// parts (`matchesBeyondPath`); near-miss ranking and reports ask every part.
struct RouteMatchers: Sendable {
    let method: MethodMatcher
    let path: PathMatcher
    let query: QueryMatcher
    let headers: [any RequestPartMatcher]
    let body: BodyMatcher
    let host: HostMatcher?

    init(_ pattern: RequestPattern) {
        method = MethodMatcher(method: pattern.method)
        path = PathMatcher(pattern.path)
        query = QueryMatcher(expected: pattern.query, present: pattern.queryPresent, matches: pattern.queryMatches,
                             othersAllowed: pattern.otherQueryAllowed)
        host = pattern.host.map(HostMatcher.init)
        headers = pattern.headers.map { header -> any RequestPartMatcher in
            MediaTypeMatcher(name: header.name, value: header.value) ?? HeaderMatcher(name: header.name, value: header.value)
        } + pattern.headerMatches.map { NamedValueMatcher($0, source: .header) }
            + pattern.cookieMatches.map { NamedValueMatcher($0, source: .cookie) }
        body = BodyMatcher(pattern: pattern.body, anyValueFor: pattern.anyValueFor, jsonOptions: pattern.jsonOptions)
    }

    /// Query, headers and body: what the index has not already checked.
    func matchesBeyondPath(_ request: RequestView) -> Bool {
        if let host, !host.matches(request) { return false }
        guard query.matches(request) else { return false }
        for header in headers where !header.matches(request) { return false }
        return body.matches(request)
    }

    /// The parts after method and path, in report order.
    private var remainingParts: [any RequestPartMatcher] { (host.map { [$0] } ?? []) + [query] + headers + [body] }

    /// Method and path only: the cheap first stage of near-miss ranking.
    func addressDistance(_ request: RequestView) -> Int {
        method.distance(request) + path.distance(request)
    }

    /// Query, headers and body: the second stage, for the few routes that can still make the cut.
    func remainingDistance(_ request: RequestView) -> Int {
        remainingParts.reduce(0) { $0 + $1.distance(request) }
    }

    /// Every difference, in the order a report lists them: method, path, query, headers, body.
    func explain(_ request: RequestView) -> [String] {
        ([method, path] + remainingParts).flatMap { $0.explain(request) }
    }
}
