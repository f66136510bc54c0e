public import Foundation

/// When a stub answers, as in Moya: `.immediate`, after a delay, or not at all.
///
/// In the app `.never` means "use the network"; stubd is that network, so it answers `.never`
/// targets at once (`TargetCompileOptions.never` = `.omit` leaves them out, and says so).
public enum StubBehavior: Equatable, Sendable {
    /// Not stubbed in the app: served at once by stubd unless omitted.
    case never
    /// Answer at once.
    case immediate
    /// Answer after this many seconds, timed by the server's event loop (no thread sleeps).
    case delayed(seconds: TimeInterval)
}
