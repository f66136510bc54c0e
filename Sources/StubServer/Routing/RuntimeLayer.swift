import StubModel
import StubdMatching

/// The runtime routes of one session (or of every session): an immutable index that a change
/// copies only along the paths it touches, so adding or removing k routes costs O(k · log n),
/// not a rebuild of the n already there.
///
/// It answers what `RouteTable` answers for fixtures — the first matching route in `Precedence`
/// order (exact paths by hash, templates from a trie, then path patterns), a HEAD falling back
/// to GET — from persistent structures: `PersistentMap`s and a path-copied template trie. Path
/// patterns (regular expressions) of one method are a plain list, copied when one is added or
/// removed: they are few, and each is tried in turn anyway.
final class RuntimeLayer: Sendable {
    /// Every route, by id.
    let routes: PersistentMap<RouteID, Route>
    /// Which route answers each request pattern (the newest of the layer replaces an older one).
    private let slots: PersistentMap<RouteSlot, RouteID>
    /// Exact-path routes by method and decoded path, each list in precedence order.
    private let exact: PersistentMap<RouteTable.Key, [Route]>
    /// Template routes, a trie per method.
    private let templates: [String: TrieNode]
    /// Path-pattern routes per method, in precedence order.
    private let patterns: [String: [Route]]
    /// Routes by their path's first segment: where a miss looks for its nearest routes.
    private let neighbourhoods: PersistentMap<String, PersistentMap<RouteID, Route>>
    /// Routes taking part in a scenario.
    private let scenarioRoutes: Int
    /// How many routes stand for each server (`RequestPattern.host`).
    let hostCounts: [String: Int]

    private init(routes: PersistentMap<RouteID, Route>, slots: PersistentMap<RouteSlot, RouteID>, exact: PersistentMap<RouteTable.Key, [Route]>,
                 templates: [String: TrieNode], patterns: [String: [Route]], neighbourhoods: PersistentMap<String, PersistentMap<RouteID, Route>>,
                 scenarioRoutes: Int, hostCounts: [String: Int]) {
        self.routes = routes
        self.slots = slots
        self.exact = exact
        self.templates = templates
        self.patterns = patterns
        self.neighbourhoods = neighbourhoods
        self.scenarioRoutes = scenarioRoutes
        self.hostCounts = hostCounts
    }

    /// No routes.
    static let empty = RuntimeLayer(routes: PersistentMap(), slots: PersistentMap(), exact: PersistentMap(), templates: [:], patterns: [:],
                                    neighbourhoods: PersistentMap(), scenarioRoutes: 0, hostCounts: [:])

    /// `count` is a stored field of the map: a load, where `isEmpty` (a `package` member, never
    /// inlined across modules) would be a call on every lookup.
    var isEmpty: Bool { routes.count == 0 }
    var count: Int { routes.count }
    var hasScenarios: Bool { scenarioRoutes > 0 }

    /// The routes in declaration order (ids are given in order), for listings.
    var orderedRoutes: [Route] { routes.values.sorted { $0.order < $1.order } }

    /// The route answering the same requests as `fixture` (same pattern, scenario step, priority), if any.
    func route(answering fixture: Fixture) -> Route? {
        slots[RouteSlot(fixture)].flatMap { routes[$0] }
    }

    // MARK: Changes

    /// The layer with `added` in it; a route answering the same requests as one already here
    /// replaces it (the newest stub wins). Two routes of `added` answering the same requests
    /// differently are a conflict and nothing is added; an identical duplicate is added once.
    func adding(_ added: [Route]) throws(RouteTableError) -> RuntimeLayer {
        var seen: [RouteSlot: Fixture] = [:]
        var conflicts: [RouteTableError.Conflict] = []
        var kept: [Route] = []
        for route in added {
            let slot = RouteSlot(route.fixture)
            if let first = seen[slot] {
                if first != route.fixture { conflicts.append(.init(first: first, second: route.fixture)) }
                continue
            }
            seen[slot] = route.fixture
            kept.append(route)
        }
        if !conflicts.isEmpty { throw RouteTableError(conflicts: conflicts) }
        var layer = self
        for route in kept {
            if let replaced = layer.route(answering: route.fixture) { layer = layer.removing(replaced) }
            layer = layer.inserting(route)
        }
        return layer
    }

    /// The layer without `route`.
    func removing(_ route: Route) -> RuntimeLayer {
        guard routes[route.id] != nil else { return self }
        let fixture = route.fixture
        let slot = RouteSlot(fixture)
        var exact = self.exact, templates = self.templates, patterns = self.patterns
        switch fixture.request.path {
        case .literal(let path):
            let key = RouteTable.Key(method: fixture.request.method, path: path.key)
            let rest = (exact[key] ?? []).filter { $0.id != route.id }
            exact = exact.setting(key, rest.isEmpty ? nil : rest)
        case .template(let template):
            templates[fixture.request.method] = templates[fixture.request.method]?.removing(route, along: template.segments[...],
                                                                                              trailingSlash: template.trailingSlash)
        case .regex, .urlRegex:
            let rest = (patterns[fixture.request.method] ?? []).filter { $0.id != route.id }
            patterns[fixture.request.method] = rest.isEmpty ? nil : rest
        }
        let first = Self.firstSegment(route)
        let neighbours = (neighbourhoods[first] ?? PersistentMap()).setting(route.id, nil)
        var hosts = hostCounts
        if let host = fixture.request.host { hosts[host] = (hosts[host] ?? 1) > 1 ? hosts[host]! - 1 : nil }
        return RuntimeLayer(routes: routes.setting(route.id, nil),
                            slots: slots[slot] == route.id ? slots.setting(slot, nil) : slots,
                            exact: exact, templates: templates, patterns: patterns,
                            neighbourhoods: neighbourhoods.setting(first, neighbours.isEmpty ? nil : neighbours),
                            scenarioRoutes: scenarioRoutes - (fixture.scenario != nil ? 1 : 0), hostCounts: hosts)
    }

    private func inserting(_ route: Route) -> RuntimeLayer {
        let fixture = route.fixture
        var exact = self.exact, templates = self.templates, patterns = self.patterns
        switch fixture.request.path {
        case .literal(let path):
            let key = RouteTable.Key(method: fixture.request.method, path: path.key)
            exact = exact.setting(key, Self.inserted(route, into: exact[key] ?? []))
        case .template(let template):
            templates[fixture.request.method] = (templates[fixture.request.method] ?? .empty)
                .inserting(route, along: template.segments[...], trailingSlash: template.trailingSlash)
        case .regex, .urlRegex:
            patterns[fixture.request.method] = Self.inserted(route, into: patterns[fixture.request.method] ?? [])
        }
        let first = Self.firstSegment(route)
        var hosts = hostCounts
        if let host = fixture.request.host { hosts[host, default: 0] += 1 }
        return RuntimeLayer(routes: routes.setting(route.id, route), slots: slots.setting(RouteSlot(fixture), route.id),
                            exact: exact, templates: templates, patterns: patterns,
                            neighbourhoods: neighbourhoods.setting(first, (neighbourhoods[first] ?? PersistentMap()).setting(route.id, route)),
                            scenarioRoutes: scenarioRoutes + (fixture.scenario != nil ? 1 : 0), hostCounts: hosts)
    }

    /// `list` with `route` in its place by precedence.
    private static func inserted(_ route: Route, into list: [Route]) -> [Route] {
        var list = list
        list.insert(route, at: list.firstIndex { route.precedence < $0.precedence } ?? list.count)
        return list
    }

    /// The first segment of a route's path as written (`users` of `/users/{id}`), for neighbourhoods.
    private static func firstSegment(_ route: Route) -> String {
        route.pathText.split(separator: "/", omittingEmptySubsequences: true).first.map(String.init) ?? ""
    }

}

extension RuntimeLayer: RouteLookup {
    func pathCandidates(_ view: RequestView, method: String) -> [Route] {
        var candidates = exact[RouteTable.Key(method: method, path: view.pathKey)] ?? []
        if let trie = templates[method] {
            var fitting: [Route] = []
            trie.collect(view.path.segments[...], trailingSlash: view.path.trailingSlash, into: &fitting)
            if !fitting.isEmpty { candidates = (candidates + fitting).sorted { $0.precedence < $1.precedence } }
        }
        return candidates
    }

    func patternRoutes(method: String) -> [Route] { patterns[method] ?? [] }

    /// Small layers are ranked whole; in large ones the routes under the request's first path
    /// segment (up to 64) and the method's path patterns.
    func nearMissCandidates(_ view: RequestView) -> [Route] {
        if routes.count <= 64 { return routes.values }
        var candidates: [Route] = []
        let first = view.path.segments.first ?? ""
        neighbourhoods[first]?.forEach { _, route in
            candidates.append(route)
            return candidates.count < 64
        }
        return candidates + (patterns[view.request.method] ?? [])
    }
}

/// One node of a method's template trie: immutable, a change copies the nodes on its path.
final class TrieNode: Sendable {
    let literals: PersistentMap<String, TrieNode>
    let parameter: TrieNode?
    /// Routes whose template ends here, without and with a trailing slash.
    let routes: [Route]
    let routesWithTrailingSlash: [Route]

    init(literals: PersistentMap<String, TrieNode>, parameter: TrieNode?, routes: [Route], routesWithTrailingSlash: [Route]) {
        self.literals = literals
        self.parameter = parameter
        self.routes = routes
        self.routesWithTrailingSlash = routesWithTrailingSlash
    }

    static let empty = TrieNode(literals: PersistentMap(), parameter: nil, routes: [], routesWithTrailingSlash: [])

    var isEmpty: Bool { literals.isEmpty && parameter == nil && routes.isEmpty && routesWithTrailingSlash.isEmpty }

    func inserting(_ route: Route, along segments: ArraySlice<PathTemplate.Segment>, trailingSlash: Bool) -> TrieNode {
        guard let segment = segments.first else {
            return TrieNode(literals: literals, parameter: parameter, routes: trailingSlash ? routes : routes + [route],
                            routesWithTrailingSlash: trailingSlash ? routesWithTrailingSlash + [route] : routesWithTrailingSlash)
        }
        let rest = segments.dropFirst()
        switch segment {
        case .literal(let text):
            let child = (literals[text] ?? .empty).inserting(route, along: rest, trailingSlash: trailingSlash)
            return TrieNode(literals: literals.setting(text, child), parameter: parameter, routes: routes, routesWithTrailingSlash: routesWithTrailingSlash)
        case .parameter:
            let child = (parameter ?? .empty).inserting(route, along: rest, trailingSlash: trailingSlash)
            return TrieNode(literals: literals, parameter: child, routes: routes, routesWithTrailingSlash: routesWithTrailingSlash)
        }
    }

    /// The trie without `route`; nil when nothing is left.
    func removing(_ route: Route, along segments: ArraySlice<PathTemplate.Segment>, trailingSlash: Bool) -> TrieNode? {
        let node: TrieNode
        if let segment = segments.first {
            let rest = segments.dropFirst()
            switch segment {
            case .literal(let text):
                guard let child = literals[text] else { return self }
                node = TrieNode(literals: literals.setting(text, child.removing(route, along: rest, trailingSlash: trailingSlash)),
                                parameter: parameter, routes: routes, routesWithTrailingSlash: routesWithTrailingSlash)
            case .parameter:
                node = TrieNode(literals: literals, parameter: parameter?.removing(route, along: rest, trailingSlash: trailingSlash),
                                routes: routes, routesWithTrailingSlash: routesWithTrailingSlash)
            }
        } else {
            node = TrieNode(literals: literals, parameter: parameter, routes: routes.filter { $0.id != route.id },
                            routesWithTrailingSlash: routesWithTrailingSlash.filter { $0.id != route.id })
        }
        return node.isEmpty ? nil : node
    }

    /// Every route whose template fits `path`.
    func collect(_ path: ArraySlice<String>, trailingSlash: Bool, into found: inout [Route]) {
        guard let segment = path.first else {
            found += trailingSlash ? routesWithTrailingSlash : routes
            return
        }
        let rest = path.dropFirst()
        literals[segment]?.collect(rest, trailingSlash: trailingSlash, into: &found)
        if let parameter, !segment.isEmpty { parameter.collect(rest, trailingSlash: trailingSlash, into: &found) }
    }
}
