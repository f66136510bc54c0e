import Foundation

/// When a stub answers, as in Moya: `.immediate`, after a delay, or not at all.
///
/// For stubd, `.never` means "this target is not served" (the route is left out of the table).
public enum StubBehavior: Equatable, Sendable {
    /// Not stubbed; stubd leaves the target out.
    case never
    /// Answer at once.
    case immediate
    /// Answer after this many seconds, timed by the server's event loop (no thread sleeps).
    case delayed(seconds: TimeInterval)
}
