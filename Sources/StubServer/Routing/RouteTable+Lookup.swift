import TargetModel

/// The result of looking a request up.
public enum LookupResult: Sendable {
    /// A route matched.
    case hit(Route)
    /// Nothing matched; the closest routes and how each differs.
    case miss([NearMiss])
}

/// A route that almost matched a request, and what differed.
public struct NearMiss: Sendable {
    /// The route.
    public let route: Route
    /// One sentence per difference (`query page: expected "2", got "3"`).
    public let differences: [String]
}

extension RouteTable {
    /// Finds the route for a request: exact-path candidates by hash, template candidates from the
    /// trie, then the first that fully matches in `Precedence` order. A HEAD with no HEAD route is
    /// answered by the GET route. Near misses are computed only on a miss.
    public func lookup(_ request: IncomingRequest) -> LookupResult {
        let decoded = RequestMatcher.DecodedRequest(request)
        if let route = match(decoded, accept: nil) { return .hit(route) }
        return .miss(nearMisses(decoded, limit: 3).map(\.miss))
    }

    /// The first route, in precedence order, that matches and that `accept` takes (scenario
    /// state); a HEAD falls back to GET routes.
    func match(_ decoded: RequestMatcher.DecodedRequest, accept: ((Route) -> Bool)?) -> Route? {
        if let route = match(decoded, method: decoded.request.method, accept: accept) { return route }
        if decoded.request.method == "HEAD" { return match(decoded, method: "GET", accept: accept) }
        return nil
    }

    private func match(_ decoded: RequestMatcher.DecodedRequest, method: String, accept: ((Route) -> Bool)?) -> Route? {
        let exact = index[Key(method: method, path: decoded.pathKey)] ?? []
        var candidates = exact
        if let trie = templates[method], !trie.isEmpty {
            let fitting = trie.candidates(for: decoded.path)
            if !fitting.isEmpty {
                candidates = (exact + fitting).sorted { routes[$0].precedence < routes[$1].precedence }
            }
        }
        for position in candidates
        where RequestMatcher.differences(decoded, routes[position].fixture.request, checkMethodAndPath: false).isEmpty
            && (accept?(routes[position]) ?? true) {
            return routes[position]
        }
        return nil
    }

    /// The `limit` routes closest to the request: fewest differences, then closest path.
    ///
    /// Small tables are ranked whole; in large ones only the routes whose paths sort next to the
    /// request's (±16) are ranked, so a miss costs the same with 1,000 or 100,000 routes.
    func nearMisses(_ decoded: RequestMatcher.DecodedRequest, limit: Int) -> [(score: Int, miss: NearMiss)] {
        guard !routes.isEmpty else { return [] }
        var decoded = decoded
        decoded.decodedPath = decoded.path
        let requestPath = decoded.path.description
        // Rank by the cheap part of the score first (path distance, method); explain only the few
        // that can still make the cut, since building a difference report is the expensive part.
        let ranked = nearMissCandidates(requestPath).map { route -> (score: Int, route: Route) in
            let distance = EditDistance.between(requestPath, route.fixture.request.path.description, cap: 64)
            let methodPenalty = route.fixture.request.method == decoded.request.method ? 0 : 8
            return (distance * 4 + methodPenalty, route)
        }.sorted { $0.score != $1.score ? $0.score < $1.score : $0.route.order < $1.route.order }
        var scored: [(score: Int, miss: NearMiss)] = ranked.prefix(limit + 6).map { candidate in
            let differences = RequestMatcher.differences(decoded, candidate.route.fixture.request)
            return (candidate.score + differences.count, NearMiss(route: candidate.route, differences: differences))
        }
        scored.sort { $0.score != $1.score ? $0.score < $1.score : $0.miss.route.order < $1.miss.route.order }
        return Array(scored.prefix(limit))
    }
}

extension RouteTable {
    func nearMissCandidates(_ path: String) -> [Route] {
        let window = 16
        guard routes.count > 4 * window else { return routes }
        var low = 0
        var high = byPath.count
        while low < high {
            let middle = (low + high) / 2
            if byPath[middle].path < path { low = middle + 1 } else { high = middle }
        }
        let range = max(0, low - window)..<min(byPath.count, low + window)
        return byPath[range].map { routes[$0.position] }
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
