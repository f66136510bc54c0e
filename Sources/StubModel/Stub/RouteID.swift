/// A route's stable handle in the admin API, the journal and sequence counters: `f3` for the
/// fourth fixture route, `r12` for the twelfth runtime route.
///
/// The origin is a field, not a spelling to parse: fixture routes are renumbered on every reload
/// (their sequence positions restart), runtime routes keep their number until removed.
public struct RouteID: Hashable, Sendable, CustomStringConvertible, LosslessStringConvertible {
    /// Where a route comes from.
    public enum Origin: Hashable, Sendable {
        /// A fixture file or a Swift target loaded at start (or reloaded by `--watch`).
        case fixture
        /// Added through the admin API or `StubdServer.add`.
        case runtime
    }

    /// Where the route comes from.
    public let origin: Origin
    /// Its number within that origin.
    public let number: Int

    /// An id.
    public init(_ origin: Origin, _ number: Int) {
        self.origin = origin
        self.number = number
    }

    /// Parses `f3` or `r12`; nil for anything else.
    public init?(_ description: String) {
        guard let first = description.first, let number = Int(description.dropFirst()), number >= 0 else { return nil }
        switch first {
        case "f": origin = .fixture
        case "r": origin = .runtime
        default: return nil
        }
        self.number = number
    }

    /// `f3` or `r12`.
    public var description: String { (origin == .fixture ? "f" : "r") + String(number) }
}
