public import StubModel
import StubdMatching
public import StubdEngine

/// The compiled, immutable set of stubs that every event loop reads.
///
/// Lookup hashes on method + decoded path segments for exact routes and walks a per-method trie
/// for templates, then checks only the few routes found, so it costs the same with 1 route or
/// 100,000. A change (reload, runtime edit) builds a new table and swaps it; a table is never
/// mutated.
public final class RouteTable: Sendable {
    struct Key: Hashable, Sendable {
        let method: String
        let path: String
    }

    /// Every route, in declaration order.
    public let routes: [Route]
    /// Things that load but will not behave as the author expects (unreachable routes, dropped
    /// bodies); `stubd check` and `stubd serve` print them.
    public let warnings: [String]
    let index: [Key: [Int]]
    let templates: [String: TemplateTrie]
    /// Path-pattern (regex) routes by method, in precedence order: tried only when no exact or
    /// template route matches.
    let patterns: [String: [Int]]
    /// Whether any route takes part in a scenario (lookups skip the state check otherwise).
    public let hasScenarios: Bool
    /// The servers routes stand for (`RequestPattern.host`); empty when no route names one.
    let hosts: Set<String>
    /// Route positions sorted by decoded path, so a miss ranks only its neighbours.
    let byPath: [(path: String, position: Int)]

    /// Compiles fixtures, rejecting two stubs that answer the same request differently.
    ///
    /// Identical duplicates (same request, same answer) are kept once, with a warning.
    public convenience init(fixtures: [Fixture]) throws(RouteTableError) {
        try self.init(entries: fixtures.enumerated().map { (RouteID(.fixture, $0.offset), $0.element) })
    }

    /// Compiles fixtures with ids chosen by the caller.
    convenience init(entries: [(id: RouteID, fixture: Fixture)]) throws(RouteTableError) {
        try self.init(compiled: entries.enumerated().map { Route(fixture: $0.element.fixture, id: $0.element.id, order: $0.offset) })
    }

    /// Indexes routes compiled earlier (the runtime store keeps each route's compiled form, so a
    /// change recompiles only the routes it adds). `compiled` is in declaration order: each
    /// route's `order` larger than the one before.
    init(compiled: [Route]) throws(RouteTableError) {
        var routes: [Route] = []
        var index: [Key: [Int]] = [:]
        var templates: [String: TemplateTrie] = [:]
        var patterns: [String: [Int]] = [:]
        // Two routes conflict when one request would reach both with nothing to tell them apart.
        var firstByPattern: [RouteSlot: Int] = [:]
        var warnings: [String] = []
        var conflicts: [RouteTableError.Conflict] = []
        for route in compiled {
            let fixture = route.fixture
            if let existing = firstByPattern[RouteSlot(fixture)] {
                let first = routes[existing].fixture
                if first == fixture {
                    warnings.append("\(fixture): duplicate of \(first); the duplicate is ignored")
                } else {
                    conflicts.append(.init(first: first, second: fixture))
                }
                continue
            }
            firstByPattern[RouteSlot(fixture)] = routes.count
            switch fixture.request.path {
            case .literal(let path):
                index[Key(method: fixture.request.method, path: path.key), default: []].append(routes.count)
            case .template(let template):
                templates[fixture.request.method, default: TemplateTrie()].insert(template, route: routes.count)
            case .regex, .urlRegex:
                patterns[fixture.request.method, default: []].append(routes.count)
            }
            routes.append(route)
        }
        if !conflicts.isEmpty { throw RouteTableError(conflicts: conflicts) }
        for key in index.keys {
            index[key]!.sort { routes[$0].precedence < routes[$1].precedence }
        }
        self.routes = routes
        self.index = index
        self.templates = templates
        self.patterns = patterns.mapValues { positions in positions.sorted { routes[$0].precedence < routes[$1].precedence } }
        self.hasScenarios = routes.contains { $0.fixture.scenario != nil }
        self.hosts = Set(routes.compactMap(\.fixture.request.host))
        self.byPath = routes.enumerated().map { ($0.element.pathText, $0.offset) }.sorted { $0.path < $1.path }
        self.warnings = warnings
    }

    /// An empty table (every request is a miss).
    public static let empty = try! RouteTable(fixtures: [])

    /// The positions of the routes whose path index `request` reaches for `method` (literal,
    /// template and pattern routes alike), for checks run once at load (`RouteChecks`).
    package func candidates(for request: IncomingRequest, method: String) -> [Int] {
        literalCandidates(for: request, method: method) + patternCandidates(for: request, method: method)
    }

    /// The literal-path routes among `candidates(for:method:)`.
    package func literalCandidates(for request: IncomingRequest, method: String) -> [Int] {
        index[Key(method: method, path: RequestView(request, knownHosts: hosts).pathKey)] ?? []
    }

    /// The template and pattern routes among `candidates(for:method:)`.
    package func patternCandidates(for request: IncomingRequest, method: String) -> [Int] {
        let view = RequestView(request, knownHosts: hosts)
        return (templates[method]?.candidates(for: view.path) ?? []) + (patterns[method] ?? [])
    }

    /// Whether `route` accepts `request` whole (path and the rest), as a lookup would judge it.
    package func accepts(_ route: Route, _ request: IncomingRequest) -> Bool {
        let view = RequestView(request, knownHosts: hosts)
        return route.matchesPath(view) && route.matchesBeyondPath(view)
    }
}

/// Why a set of stubs cannot be compiled into one table.
public struct RouteTableError: Error, CustomStringConvertible {
    /// Two stubs for the same request with different answers.
    public struct Conflict: Sendable {
        /// The stub declared first.
        public let first: Fixture
        /// The stub declared later.
        public let second: Fixture
    }

    /// Conflicting pairs.
    public var conflicts: [Conflict] = []
    /// Swift targets that could not be turned into requests, one line each (`TargetServing`).
    public var targetErrors: [String] = []

    /// Creates the error (the serving core reports conflicts; `TargetServing` reports targets).
    public init(conflicts: [Conflict] = [], targetErrors: [String] = []) {
        self.conflicts = conflicts
        self.targetErrors = targetErrors
    }

    /// One line per problem, naming both stubs of a conflict.
    public var description: String {
        let lines = conflicts.map {
            "\($0.second) answers the same request as \($0.first) (\($0.first.request.method) \($0.first.request.path)) with a different response; remove one, or make their requests differ"
        } + targetErrors
        return lines.joined(separator: "\n")
    }
}

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

}

extension RouteTable: RouteLookup {
    @inline(__always)
    func pathCandidates(_ view: RequestView, method: String) -> LazyMapSequence<[Int], Route> {
        let exact = index[Key(method: method, path: view.pathKey)] ?? []
        var candidates = exact
        if let trie = templates[method], !trie.isEmpty {
            let fitting = trie.candidates(for: view.path)
            if !fitting.isEmpty {
                candidates = (exact + fitting).sorted { routes[$0].precedence < routes[$1].precedence }
            }
        }
        return candidates.lazy.map { self.routes[$0] }
    }

    func patternRoutes(method: String) -> LazyMapSequence<[Int], Route> {
        (patterns[method] ?? []).lazy.map { self.routes[$0] }
    }

    /// Small tables are ranked whole; in large ones only the routes whose paths sort next to the
    /// request's (±16), so a miss costs the same with 1,000 or 100,000 routes.
    func nearMissCandidates(_ view: RequestView) -> [Route] {
        let path = view.path.description
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
