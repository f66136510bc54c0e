import StubModel
import StubdMatching

/// The one lookup: how a set of routes answers a request, shared by the fixture table
/// (`RouteTable`) and the runtime layers (`RuntimeLayer`), which differ only in how they keep
/// their routes. The first route, in `Precedence` order, among the exact-path and template
/// candidates that matches beyond its path and that `accept` takes (scenario state, a route
/// turned off); only when none does, the method's path patterns (regular expressions) in order. A
/// HEAD with no HEAD route is answered by the GET route. Near misses are ranked only on a miss.
protocol RouteLookup {
    associatedtype PathCandidates: Sequence<Route>
    associatedtype PatternRoutes: Sequence<Route>

    /// The exact-path routes (by hash) and template routes (from the trie) of `method` whose path
    /// `view` may have, in precedence order: the few a lookup asks about the rest.
    func pathCandidates(_ view: RequestView, method: String) -> PathCandidates
    /// The path-pattern routes of `method`, in precedence order.
    func patternRoutes(method: String) -> PatternRoutes
    /// The routes a miss ranks: all of a small set; in a large one, those near the request's path.
    func nearMissCandidates(_ view: RequestView) -> [Route]
}

extension RouteLookup {
    /// The first route that matches and that `accept` takes; a HEAD falls back to GET routes.
    @inline(__always)
    func match(_ view: RequestView, accept: ((Route) -> Bool)?) -> Route? {
        if let route = match(view, method: view.request.method, accept: accept) { return route }
        if view.request.method == "HEAD" { return match(view, method: "GET", accept: accept) }
        return nil
    }

    private func match(_ view: RequestView, method: String, accept: ((Route) -> Bool)?) -> Route? {
        for route in pathCandidates(view, method: method) where route.matchesBeyondPath(view) && (accept?(route) ?? true) { return route }
        for route in patternRoutes(method: method) where route.matchesPath(view) && route.matchesBeyondPath(view) && (accept?(route) ?? true) {
            return route
        }
        return nil
    }

    /// The `limit` routes closest to the request, by the sum of their matchers' distances. Method
    /// and path distances rank first; only the best few are asked for the rest of their distance,
    /// and only the final ones explain themselves (building sentences is the expensive part). Ties
    /// go to the route declared first.
    func nearMisses(_ view: RequestView, limit: Int) -> [(score: Int, miss: NearMiss)] {
        let ranked = nearMissCandidates(view).map { (score: $0.matchers.addressDistance(view), route: $0) }
            .sorted { $0.score != $1.score ? $0.score < $1.score : $0.route.order < $1.route.order }
        let scored = ranked.prefix(limit + 6)
            .map { (score: $0.score + $0.route.matchers.remainingDistance(view), route: $0.route) }
            .sorted { $0.score != $1.score ? $0.score < $1.score : $0.route.order < $1.route.order }
        return scored.prefix(limit).map { ($0.score, NearMiss(route: $0.route, differences: $0.route.matchers.explain(view))) }
    }
}
