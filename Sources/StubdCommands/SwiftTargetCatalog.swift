public import Foundation
public import StubModel

/// The Swift targets a targets package serves, as the commands need them: compiled to fixtures,
/// and the `Decodable` type each names for `stubd verify`. The plain `stubd` has none; a targets
/// package's `Stubd.main(targets:)` (module `StubdCLI`, which knows Moya's `TargetType`) hands
/// one over. The commands stay free of the Moya layer — and of the URLRequest it needs, whose
/// FoundationNetworking brings libcurl into the container image.
public protocol SwiftTargetCatalog: Sendable {
    /// How many targets there are (for banners and "nothing to export").
    var count: Int { get }

    /// Every target as fixtures (`.never` ones left out when `omitNever`), matched as `match`
    /// says unless a target chooses; every target that cannot be compiled is reported.
    func compile(omitNever: Bool, match: MatchPolicy) throws(SwiftTargetProblems) -> CompiledSwiftTargets

    /// The targets that name their `Decodable` type, by the fixture each compiles to.
    func decoders() -> [SwiftTargetKey: (type: any Decodable.Type, decoder: JSONDecoder)]
}

/// Targets compiled into fixtures, with what the commands report about them.
public struct CompiledSwiftTargets: Sendable {
    /// One fixture per served target, in target order.
    public var fixtures: [Fixture]
    /// The targets left out (`.never` under `--omit-never`), as `String(describing:)` prints them.
    public var omitted: [String]
    /// Targets whose shape another target has too, with that target.
    public var sharedShapes: [(target: String, answeredBy: String)]

    /// Creates the result.
    public init(fixtures: [Fixture], omitted: [String], sharedShapes: [(target: String, answeredBy: String)]) {
        self.fixtures = fixtures
        self.omitted = omitted
        self.sharedShapes = sharedShapes
    }
}

/// Targets that could not be turned into requests, one line each naming the target and the fix.
public struct SwiftTargetProblems: Error, Sendable {
    /// One description per target.
    public var lines: [String]

    /// Creates the error.
    public init(lines: [String]) { self.lines = lines }
}

/// The fixture a target compiles to (its name and source, as `Fixture(target:)` makes them).
public struct SwiftTargetKey: Hashable, Sendable {
    /// `String(describing: target)`.
    public let name: String
    /// `swift TypeName`.
    public let source: String

    /// Creates the key.
    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }
}
