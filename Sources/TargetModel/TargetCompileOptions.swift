import Foundation
/// Choices a team makes once for how its Moya targets become stubs.
public struct TargetCompileOptions: Sendable {
    /// What happens to targets whose `stubBehavior` is `.never`.
    public enum NeverTargets: String, Sendable, CaseIterable {
        /// Served immediately: in the app `.never` means "use the network", and stubd is that
        /// network. The default.
        case serve
        /// Left out, and listed as left out (`CompiledTargets.omitted`).
        case omit
    }

    /// What happens to `.never` targets.
    public var never: NeverTargets
    /// How requests are matched, for targets that do not choose (`TargetType.matchPolicy`).
    public var match: MatchPolicy

    /// Options; the defaults serve every target and match the app's exact requests.
    public init(never: NeverTargets = .serve, match: MatchPolicy = .exact) {
        self.never = never
        self.match = match
    }
}

/// Targets compiled into fixtures, with the ones that were left out named.
public struct CompiledTargets {
    /// One fixture per served target, in target order.
    public var fixtures: [Fixture]
    /// The targets left out (`.never` with `NeverTargets.omit`), as `String(describing:)` prints them.
    public var omitted: [String]
    /// Under `.shape`: targets whose shape another target has too, with that target. Requests
    /// with a target's own values still reach it; other values reach the first.
    public var sharedShapes: [(target: String, answeredBy: String)] = []

    /// Compiles every target; every target that cannot become a request is reported, not only
    /// the first.
    ///
    /// Under `.shape` a target becomes its shape route; when several targets share one shape,
    /// each keeps a route for its own parameter values and body (headers as in a shape) and the
    /// first also gets the shape route one priority lower (so the more specific answers first). Targets that differ only by base host get a `host`
    /// (see `RequestPattern.host`), so all of them are served.
    public static func compile(_ targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(TargetCompileErrors) -> CompiledTargets {
        var compiled = CompiledTargets(fixtures: [], omitted: [])
        var errors: [TargetCompileError] = []
        var exact: [(fixture: Fixture, shape: RequestPattern?, host: String?, required: Set<String>)] = []
        for target in targets {
            do {
                guard let fixture = try Fixture(target: target, options: options) else {
                    compiled.omitted.append(TargetValues.name(of: target))
                    continue
                }
                let policy = target.matchPolicy ?? options.match
                var shape = policy == .shape ? fixture.request.shape(requiredHeaders: target.requiredHeaders) : nil
                // A shape is any client's request for the endpoint: path segments that are the case's values become {label}.
                if let path = shape?.path, let templated = TargetValues.pathTemplate(for: target, path: path) { shape?.path = templated }
                exact.append((fixture, shape, target.baseURL.host?.lowercased(), target.requiredHeaders))
            } catch {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw TargetCompileErrors(errors: errors) }
        // Shapes shared by several targets of one host (other hosts are told apart by host).
        func key(_ index: Int) -> Key? {
            guard var shape = exact[index].shape else { return nil }
            shape.host = exact[index].host
            return Key(request: shape, fixture: exact[index].fixture)
        }
        var owners: [Key: Int] = [:]
        var sharedIndices: Set<Int> = []
        for index in exact.indices {
            guard let key = key(index) else { continue }
            if let first = owners[key] {
                compiled.sharedShapes.append((display(exact[index].fixture), display(exact[first].fixture)))
                sharedIndices.formUnion([index, first])
            } else {
                owners[key] = index
            }
        }
        var fixtures: [(fixture: Fixture, host: String?)] = []
        for (index, entry) in exact.enumerated() {
            guard let shape = entry.shape, let key = key(index) else { fixtures.append((entry.fixture, entry.host)); continue }
            let isShared = sharedIndices.contains(index)
            if isShared {
                // Its own parameter values and body, from any platform.
                var values = entry.fixture
                values.request = entry.fixture.request.withShapeHeaders(requiredHeaders: entry.required)
                fixtures.append((values, entry.host))
            }
            if owners[key] == index {
                var general = entry.fixture
                general.request = shape
                if isShared { general.priority = entry.fixture.priority + 1 }
                fixtures.append((general, entry.host))
            }
        }
        compiled.fixtures = CompiledTargets.namingHosts(fixtures)
        return compiled
    }

    /// `AccountAPI.profile`: the target's type and case, for messages.
    private static func display(_ fixture: Fixture) -> String {
        fixture.source.hasPrefix("swift ") ? "\(fixture.source.dropFirst(6)).\(fixture.name)" : fixture.name
    }

    /// Routes that would answer the same request but come from different base hosts get their
    /// host, so each is reachable (by `X-Stubd-Host` or `Host`); all others are left without one.
    private static func namingHosts(_ entries: [(fixture: Fixture, host: String?)]) -> [Fixture] {
        var hostsByKey: [Key: Set<String>] = [:]
        for entry in entries { hostsByKey[Key(request: entry.fixture.request, fixture: entry.fixture), default: []].insert(entry.host ?? "") }
        return entries.map { entry in
            var fixture = entry.fixture
            if let host = entry.host, (hostsByKey[Key(request: fixture.request, fixture: fixture)]?.count ?? 0) > 1 {
                fixture.request.host = host
            }
            return fixture
        }
    }

    /// What makes two routes answer the same requests: pattern, scenario step, priority.
    private struct Key: Hashable {
        let request: RequestPattern
        let scenario: ScenarioStep?
        let priority: Int

        init(request: RequestPattern, fixture: Fixture) {
            self.request = request
            scenario = fixture.scenario
            priority = fixture.priority
        }
    }
}

/// Every target that could not be compiled.
public struct TargetCompileErrors: Error, CustomStringConvertible {
    /// One per target.
    public let errors: [TargetCompileError]

    /// One line per target.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
