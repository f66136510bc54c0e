public import Foundation
public import StubdCommands
public import TargetModel

/// A targets package's Moya targets as the commands see them: compiled by `CompiledTargets`, and
/// the `Decodable` types they name through `ResponseDecoding`.
public struct MoyaTargetCatalog: SwiftTargetCatalog, @unchecked Sendable {
    /// The targets, in the order `main.swift` lists them. (`TargetType` values are plain enums
    /// and structs, read only; `any TargetType` is not `Sendable` because Moya's protocol is not.)
    public let targets: [any TargetType]

    /// Wraps `targets`.
    public init(targets: [any TargetType]) { self.targets = targets }

    /// The number of targets.
    public var count: Int { targets.count }

    /// Compiles every target with `CompiledTargets.compile`.
    public func compile(omitNever: Bool, match: MatchPolicy) throws(SwiftTargetProblems) -> CompiledSwiftTargets {
        do {
            let compiled = try CompiledTargets.compile(targets, options: TargetCompileOptions(never: omitNever ? .omit : .serve, match: match))
            return CompiledSwiftTargets(fixtures: compiled.fixtures, omitted: compiled.omitted, sharedShapes: compiled.sharedShapes)
        } catch {
            throw SwiftTargetProblems(lines: error.errors.map(\.description))
        }
    }

    /// The targets adopting `ResponseDecoding` with a type, keyed as `Fixture(target:)` names them.
    public func decoders() -> [SwiftTargetKey: (type: any Decodable.Type, decoder: JSONDecoder)] {
        var found: [SwiftTargetKey: (type: any Decodable.Type, decoder: JSONDecoder)] = [:]
        for target in targets {
            guard let decoding = target as? any ResponseDecoding, let type = decoding.responseType else { continue }
            found[SwiftTargetKey(name: TargetValues.name(of: target), source: "swift \(Swift.type(of: target))")] = (type, decoding.responseDecoder)
        }
        return found
    }
}
