import Foundation

/// How one query parameter, header or cookie value is compared, beyond a plain exact string
/// (WireMock's vocabulary, so imported mappings keep their meaning).
public enum ValueMatch: Sendable, Hashable, CustomStringConvertible {
    /// Equal to the text (`caseInsensitive`: ignoring ASCII case).
    case equalTo(String, caseInsensitive: Bool)
    /// Contains the text.
    case contains(String)
    /// The whole value matches the regular expression (ICU syntax, anchored at both ends).
    case matches(String)
    /// The name must not be present at all.
    case absent

    /// `equalTo "x"`, `contains "x"`, `matches /x/`, `absent`, for reports.
    public var description: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): return "equal to \"\(text)\"\(caseInsensitive ? " (any case)" : "")"
        case .contains(let text): return "containing \"\(text)\""
        case .matches(let pattern): return "matching /\(pattern)/"
        case .absent: return "absent"
        }
    }
}

/// A name and how its value is compared.
public struct NamedMatch: Sendable, Hashable {
    /// The parameter, header (lower-cased) or cookie name.
    public var name: String
    /// The comparison.
    public var match: ValueMatch

    /// Creates one.
    public init(_ name: String, _ match: ValueMatch) {
        self.name = name
        self.match = match
    }
}

/// How `body.json` compares beyond exact equality by meaning.
public struct JSONMatchOptions: Sendable, Hashable {
    /// Objects in the request may have members the pattern does not list.
    public var ignoreExtraElements = false
    /// Arrays match in any order.
    public var ignoreArrayOrder = false

    /// Exact comparison (both off).
    public init(ignoreExtraElements: Bool = false, ignoreArrayOrder: Bool = false) {
        self.ignoreExtraElements = ignoreExtraElements
        self.ignoreArrayOrder = ignoreArrayOrder
    }

    /// Whether both are off.
    public var isExact: Bool { !ignoreExtraElements && !ignoreArrayOrder }
}

/// A delay drawn anew for every request (WireMock's `delayDistribution`).
public enum DelayDistribution: Sendable, Hashable {
    /// Uniform between two bounds, in seconds.
    case uniform(low: Double, high: Double)
    /// Log-normal with this median and sigma, capped at `max` seconds.
    case lognormal(median: Double, sigma: Double, max: Double?)

    /// One delay, in seconds, using `random` (a value in [0, 1)) draws.
    public func sample(_ random: () -> Double = { Double.random(in: 0..<1) }) -> Double {
        switch self {
        case .uniform(let low, let high):
            return low + (high - low) * random()
        case .lognormal(let median, let sigma, let max):
            // Box–Muller: a standard normal from two uniforms.
            let u1 = Swift.max(random(), .leastNonzeroMagnitude), u2 = random()
            let normal = (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
            let value = median * Foundation.exp(sigma * normal)
            return max.map { Swift.min(value, $0) } ?? value
        }
    }
}
