import Synchronization
import StubServer
public import StubdEngine

/// What the dashboard (`/__stubd/ui`) needs from a running server: where "write as fixture file"
/// may write, the per-server key its page proves itself with, and the metrics counters.
public final class DashboardState: Sendable {
    /// The folder the page may write fixture files into (`--ui-write-dir`); nil: writing is off.
    public let writeDirectory: String?
    /// Sent by the page in `X-Stubd-UI` with its admin calls, which carry an `Origin` a plain
    /// client's would not: a random 128-bit value made at start, printed into the page only.
    public let uiKey: String
    /// Requests, misses, faults (an exchange observer the server subscribes).
    public let metrics = ServerMetrics()
    /// The engine's loop lag, once it runs.
    private let lag = Mutex<LoopLag?>(nil)

    /// The serving engine's loop lag (set by the server once the engine runs).
    public func measure(_ loopLag: LoopLag?) {
        lag.withLock { $0 = loopLag }
    }

    /// The engine's loop lag, if it measures it.
    var loopLag: LoopLag? { lag.withLock { $0 } }

    /// A dashboard writing into `writeDirectory` (nil: no writing).
    public init(writeDirectory: String? = nil) {
        self.writeDirectory = writeDirectory
        uiKey = RandomKey.hex128()
    }
}
