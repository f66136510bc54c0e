import StubModel
import TargetModel
import StubdEngine

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
    /// Sequence or scenario routes with a step that sends no response byte (`Fault.sendsNoResponse`):
    /// while such a step is next, replies close their connection (`FaultStepDelivery`).
    let faultSteps: [Route]
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
            warnings += RouteTable.warnings(for: fixture)
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
        self.faultSteps = routes.filter { route in
            (route.contents.count > 1 || route.fixture.scenario != nil) && route.contents.contains { action in
                if case .fault(let fault) = action { return fault.sendsNoResponse }
                return false
            }
        }
        self.byPath = routes.enumerated().map { ($0.element.pathText, $0.offset) }.sorted { $0.path < $1.path }
        self.warnings = warnings
    }

    /// An empty table (every request is a miss).
    public static let empty = try! RouteTable(fixtures: [])

    /// Compiles Swift targets (every one, `.never` ones answered at once, unless `options` omit them).
    public convenience init(targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(RouteTableError) {
        try self.init(fixtures: try RouteTable.fixtures(for: targets, options: options))
    }

    /// The fixtures of the targets `options` serve; every target that cannot be turned into a
    /// request is reported, not only the first.
    public static func fixtures(for targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(RouteTableError) -> [Fixture] {
        do {
            return try CompiledTargets.compile(targets, options: options).fixtures
        } catch {
            throw RouteTableError(targetErrors: error.errors)
        }
    }

    /// The methods the engine can receive (libevent 2.1's nine, from its published capabilities).
    static let servableMethods = Set(EngineCapabilities.libevent.methods)

    static func warnings(for fixture: Fixture) -> [String] {
        var warnings: [String] = []
        let request = fixture.request
        if !servableMethods.contains(request.method) {
            warnings.append("\(fixture): method \(request.method) cannot be received by libevent 2.1 (it answers 501); this route is unreachable")
        }
        if ["GET", "HEAD"].contains(request.method), request.body != .any {
            warnings.append("\(fixture): a \(request.method) with a body is never sent by Alamofire (it fails with bodyDataInGETRequest); this route is unreachable from Moya clients")
        }
        if case .multipart = request.body, !Method(rawValue: request.method).supportsMultipart {
            warnings.append("\(fixture): Moya refuses multipart uploads with \(request.method) (only POST, PUT, PATCH, CONNECT); this route is unreachable from Moya clients")
        }
        for case .response(let response) in fixture.outcomes where !response.body.isEmpty && !PreparedReply.statusAllowsBody(response.status) {
            warnings.append("\(fixture): status \(response.status) cannot carry a body over HTTP; the \(response.body.count)-byte body is not sent")
        }
        if request.method == "HEAD", fixture.outcomes.contains(where: { if case .response(let r) = $0 { !r.body.isEmpty } else { false } }) {
            warnings.append("\(fixture): a HEAD answer carries no body; clients get the headers and Content-Length, never the body (sampleData)")
        }
        if let delay = fixture.delay, delay > 60 {
            warnings.append("\(fixture): delay \(JSONWriter.format(delay)) s is over a minute; if you meant milliseconds write \"\(JSONWriter.format(delay))ms\"")
        }
        if case .literal(let path) = request.path, let segment = path.segments.first(where: { $0.count > 2 && $0.hasPrefix("{") && $0.hasSuffix("}") }) {
            warnings.append("\(fixture): path segment \"\(segment)\" is matched literally; did you mean \"pathTemplate\"?")
        }
        return warnings
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
    /// Targets that could not be turned into requests.
    public var targetErrors: [TargetCompileError] = []

    /// One line per problem, naming both stubs of a conflict.
    public var description: String {
        let lines = conflicts.map {
            "\($0.second) answers the same request as \($0.first) (\($0.first.request.method) \($0.first.request.path)) with a different response; remove one, or make their requests differ"
        } + targetErrors.map(\.description)
        return lines.joined(separator: "\n")
    }
}
