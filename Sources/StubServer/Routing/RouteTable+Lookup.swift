import StubModel
import StubdEngine

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
    /// trie, then the first whose remaining matchers accept it, in `Precedence` order; only when
    /// none does, the method's path-pattern (regex) routes in order. A HEAD with
    /// no HEAD route is answered by the GET route. Near misses are computed only on a miss.
    public func lookup(_ request: IncomingRequest) -> LookupResult {
        let view = RequestView(request, knownHosts: hosts)
        if let route = match(view, accept: nil) { return .hit(route) }
        return .miss(nearMisses(view, limit: 3).map(\.miss))
    }

    /// The first route, in precedence order, that matches and that `accept` takes (scenario
    /// state); a HEAD falls back to GET routes.
    func match(_ view: RequestView, accept: ((Route) -> Bool)?) -> Route? {
        if let route = match(view, method: view.request.method, accept: accept) { return route }
        if view.request.method == "HEAD" { return match(view, method: "GET", accept: accept) }
        return nil
    }

    private func match(_ view: RequestView, method: String, accept: ((Route) -> Bool)?) -> Route? {
        let exact = index[Key(method: method, path: view.pathKey)] ?? []
        var candidates = exact
        if let trie = templates[method], !trie.isEmpty {
            let fitting = trie.candidates(for: view.path)
            if !fitting.isEmpty {
                candidates = (exact + fitting).sorted { routes[$0].precedence < routes[$1].precedence }
            }
        }
        for position in candidates {
            let route = routes[position]
            if route.matchesBeyondPath(view) && (accept?(route) ?? true) { return route }
        }
        for position in patterns[method] ?? [] {
            let route = routes[position]
            if route.matchesPath(view) && route.matchesBeyondPath(view) && (accept?(route) ?? true) { return route }
        }
        return nil
    }

    /// The `limit` routes closest to the request, by the sum of their matchers' distances.
    ///
    /// Small tables are ranked whole; in large ones only the routes whose paths sort next to the
    /// request's (±16) are ranked, so a miss costs the same with 1,000 or 100,000 routes. Method
    /// and path distances rank first; only the best few are asked for the rest of their distance,
    /// and only the final ones explain themselves (building sentences is the expensive part).
    func nearMisses(_ view: RequestView, limit: Int) -> [(score: Int, miss: NearMiss)] {
        guard !routes.isEmpty else { return [] }
        let ranked = nearMissCandidates(view.path.description)
            .map { (score: $0.matchers.addressDistance(view), route: $0) }
            .sorted { $0.score != $1.score ? $0.score < $1.score : $0.route.order < $1.route.order }
        let scored = ranked.prefix(limit + 6)
            .map { (score: $0.score + $0.route.matchers.remainingDistance(view), route: $0.route) }
            .sorted { $0.score != $1.score ? $0.score < $1.score : $0.route.order < $1.route.order }
        return scored.prefix(limit).map { ($0.score, NearMiss(route: $0.route, differences: $0.route.matchers.explain(view))) }
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
