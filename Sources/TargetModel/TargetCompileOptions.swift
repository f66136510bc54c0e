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

    /// Options; the defaults serve every target.
    public init(never: NeverTargets = .serve) {
        self.never = never
    }
}

/// Targets compiled into fixtures, with the ones that were left out named.
public struct CompiledTargets {
    /// One fixture per served target, in target order.
    public var fixtures: [Fixture]
    /// The targets left out (`.never` with `NeverTargets.omit`), as `String(describing:)` prints them.
    public var omitted: [String]

    /// Compiles every target; every target that cannot become a request is reported, not only
    /// the first.
    public static func compile(_ targets: [any TargetType], options: TargetCompileOptions = TargetCompileOptions()) throws(TargetCompileErrors) -> CompiledTargets {
        var compiled = CompiledTargets(fixtures: [], omitted: [])
        var errors: [TargetCompileError] = []
        for target in targets {
            do {
                if let fixture = try Fixture(target: target, options: options) {
                    compiled.fixtures.append(fixture)
                } else {
                    compiled.omitted.append(String(describing: target))
                }
            } catch {
                errors.append(error)
            }
        }
        if !errors.isEmpty { throw TargetCompileErrors(errors: errors) }
        return compiled
    }
}

/// Every target that could not be compiled.
public struct TargetCompileErrors: Error, CustomStringConvertible {
    /// One per target.
    public let errors: [TargetCompileError]

    /// One line per target.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
