import StubModel
import StubServer

/// Which routes could possibly overlap a given one, found without comparing every pair, so
/// `RouteOverlaps` costs time linear in the routes however many share one method and path
/// (8,000 GraphQL operations on `POST /graphql`, hosts on `/v1/config`, WireMock mappings of one
/// URL told apart by body).
///
/// Routes are put in pools — one per method and literal path, one per method for templates and
/// patterns — and, in each pool, indexed by the values they *require* on each dimension that
/// tells routes of one path apart: the host, each exact header and query value, the GraphQL
/// operation name or persisted-query hash, the JSON body (exact, or one leaf of a partial one).
/// A request built from route A carries A's value on every dimension A names; a route B that
/// requires another value there rejects it. So B can overlap A only if, on any one dimension A
/// names, B requires one of A's values or names nothing there (B is *open* on it): the rivals
/// are the routes keyed under A's values plus the open ones, on A's most selective dimension.
/// The set is a superset of the true overlaps; `RouteOverlaps` checks each candidate whole.
final class OverlapIndex {
    /// What a route requires (as a rival) and presents (as the request built from it), by dimension.
    struct Keys {
        /// The values a request must carry on each dimension for this route to accept it.
        var required: [String: Set<String>] = [:]
        /// The values the request built from this route carries on each dimension.
        var presented: [String: Set<String>] = [:]

        mutating func both(_ dimension: String, _ value: String) {
            required[dimension, default: []].insert(value)
            presented[dimension, default: []].insert(value)
        }
    }

    /// The routes of one method and literal path (or of one method's templates and patterns).
    final class Pool {
        var members: [Int] = []
        /// dimension → value → routes requiring it.
        var keyed: [String: [String: [Int]]] = [:]
        /// dimension → how many members require something there.
        var constrained: [String: Int] = [:]
        /// dimension → members requiring nothing there (made when first asked for).
        private var openCache: [String: [Int]] = [:]
        private let keys: [Keys]

        init(keys: [Keys]) { self.keys = keys }

        func add(_ position: Int) {
            members.append(position)
            for (dimension, values) in keys[position].required {
                constrained[dimension, default: 0] += 1
                for value in values { keyed[dimension, default: [:]][value, default: []].append(position) }
            }
        }

        private func open(_ dimension: String) -> [Int] {
            if let cached = openCache[dimension] { return cached }
            let open = members.filter { keys[$0].required[dimension] == nil }
            openCache[dimension] = open
            return open
        }

        /// The members that could accept the request built from the route at `position`.
        func rivals(of position: Int) -> [Int] {
            let presented = keys[position].presented
            var best: (dimension: String, cost: Int)?
            for (dimension, values) in presented {
                let byValue = keyed[dimension] ?? [:]
                let cost = values.reduce(0) { $0 + (byValue[$1]?.count ?? 0) } + members.count - (constrained[dimension] ?? 0)
                if best == nil || cost < best!.cost || (cost == best!.cost && dimension < best!.dimension) { best = (dimension, cost) }
            }
            guard let best else { return members }
            let byValue = keyed[best.dimension] ?? [:]
            var found = Set(open(best.dimension))
            for value in presented[best.dimension] ?? [] { found.formUnion(byValue[value] ?? []) }
            return Array(found)
        }
    }

    private let keys: [Keys]
    private var literal: [String: Pool] = [:]
    private var wild: [String: Pool] = [:]

    init(_ routes: [Route]) {
        // A partial JSON body is indexed under its rarest leaf: the one fewest routes share.
        var leafCounts: [String: Int] = [:]
        for route in routes {
            for leaf in Self.requiredLeaves(route.fixture.request.body) { leafCounts[leaf, default: 0] += 1 }
        }
        let keys = routes.map { Self.keys(for: $0.fixture.request, leafCounts: leafCounts) }
        self.keys = keys
        for (position, route) in routes.enumerated() {
            let request = route.fixture.request
            if case .literal(let path) = request.path {
                let key = request.method + " " + path.key
                let pool = literal[key] ?? Pool(keys: keys)
                literal[key] = pool
                pool.add(position)
            } else {
                let pool = wild[request.method] ?? Pool(keys: keys)
                wild[request.method] = pool
                pool.add(position)
            }
        }
    }

    /// Rivals of the route at `position` among routes on literal paths (only its own path's,
    /// for a route on a literal path; nil for a template or pattern route, whose literal rivals
    /// the table's path index finds).
    func literalRivals(of position: Int, route: Route) -> [Int]? {
        guard case .literal(let path) = route.fixture.request.path else { return nil }
        return literal[route.fixture.request.method + " " + path.key]?.rivals(of: position) ?? []
    }

    /// Rivals of the route at `position` among the templates and patterns of its method; nil when
    /// the route presents nothing to tell them apart (then the table's path index finds them).
    func wildRivals(of position: Int, route: Route) -> [Int]? {
        guard !keys[position].presented.isEmpty else { return nil }
        return wild[route.fixture.request.method]?.rivals(of: position) ?? []
    }

    // MARK: What a route requires and presents

    static func keys(for request: RequestPattern, leafCounts: [String: Int] = [:]) -> Keys {
        var keys = Keys()
        if let host = request.host, !host.hasPrefix("*.") { keys.both("host", host.lowercased()) }
        for header in request.headers { keys.both("header " + header.name.lowercased(), header.value.lowercased()) }
        for match in request.headerMatches {
            if case .equalTo(let value, _) = match.match { keys.both("header " + match.name.lowercased(), value.lowercased()) }
        }
        for pair in request.query.pairs { keys.both("query " + pair.name, pair.value) }
        for match in request.query.matches {
            if case .equalTo(let value, false) = match.match { keys.both("query " + match.name, value) }
        }
        if let graphQL = request.graphQL {
            // A route naming both answers a request carrying either; the witness carries both.
            var identities: Set<String> = []
            if let name = graphQL.operationName { identities.insert("name " + name) }
            if let hash = graphQL.persistedQueryHash { identities.insert("hash " + hash.lowercased()) }
            if !identities.isEmpty {
                keys.required["graphql"] = identities
                keys.presented["graphql"] = identities
            }
        }
        body(request.body, leafCounts: leafCounts, into: &keys)
        return keys
    }

    /// The body: a JSON route presents its canonical text, its leaves and its bytes as written;
    /// it requires its canonical text (exact) or its rarest leaf (partial). A byte route requires
    /// its bytes. Other body rules are open (they require nothing indexable).
    private static func body(_ rule: BodyRule, leafCounts: [String: Int], into keys: inout Keys) {
        switch rule.match {
        case .json(let value) where rule.anyValueFor.isEmpty:
            var presented: Set<String> = ["json " + canonical(value), "bytes " + JSONWriter.write(value, pretty: false)]
            var leaves: [String] = []
            collectLeaves(value, path: "", into: &leaves)
            presented.formUnion(leaves.map { "leaf " + $0 })
            keys.presented["body"] = presented
            if rule.jsonOptions.isExact || !isContainer(value) {
                keys.required["body"] = ["json " + canonical(value)]
            } else if let leaf = requiredLeaves(rule).min(by: { (leafCounts[$0] ?? 0, $0) < (leafCounts[$1] ?? 0, $1) }) {
                keys.required["body"] = ["leaf " + leaf]
            }
        case .bytes(let bytes):
            keys.required["body"] = ["bytes " + String(decoding: bytes, as: UTF8.self)]
        default:
            break
        }
    }

    /// The leaves a partial JSON object pattern requires (every one must be in an accepted body),
    /// `null`s aside; empty for any other rule.
    private static func requiredLeaves(_ rule: BodyRule) -> [String] {
        guard case .json(let value) = rule.match, case .object = value, rule.anyValueFor.isEmpty, !rule.jsonOptions.isExact else { return [] }
        var leaves: [String] = []
        collectLeaves(value, path: "", into: &leaves)
        return leaves.filter { !$0.hasSuffix("=null") }
    }

    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: return true
        default: return false
        }
    }

    /// JSON with object members sorted by key, at every depth (equal by meaning → equal text).
    static func canonical(_ value: JSONValue) -> String {
        JSONWriter.write(sorted(value), pretty: false)
    }

    private static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): return .object(members.map { ($0.key, sorted($0.value)) }.sorted { $0.0 < $1.0 })
        case .array(let items): return .array(items.map(sorted))
        default: return value
        }
    }

    /// `path=scalar` for every scalar reached through objects only (a partial match compares
    /// objects member by member, so a pattern's leaf must be in every body it accepts).
    private static func collectLeaves(_ value: JSONValue, path: String, into leaves: inout [String]) {
        switch value {
        case .object(let members):
            for member in members { collectLeaves(member.value, path: path + "/" + member.key, into: &leaves) }
        case .array:
            return
        default:
            if !path.isEmpty { leaves.append(path + "=" + JSONWriter.write(value, pretty: false)) }
        }
    }
}
