import Foundation
package import StubServer
package import StubdRuntime

/// Waits for an exchange to end on a server, woken by the server's own notice (an observer), not
/// by polling: `let wait = ExchangeWait(server, path: "/feed")` before the action, then
/// `wait.ended(seconds: 5)` after it.
package final class ExchangeWait: ExchangeObserver, @unchecked Sendable {
    private let path: String
    private let condition = NSCondition()
    private var ended: [Exchange] = []
    private let server: StubdServer
    private var subscription: ExchangeSubscription?

    /// Starts watching `server` for exchanges whose path is `path`.
    package init(_ server: StubdServer, path: String) {
        self.path = path
        self.server = server
        subscription = server.subscribe(self)
    }

    /// Keeps the exchanges of the watched path (others are not this wait's business).
    package func exchangeEnded(_ exchange: Exchange) {
        if exchange.request.rawPath == path {
            condition.lock()
            ended.append(exchange)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The first exchange of the path that ended, waiting up to `seconds`; nil when none did.
    package func ended(seconds: Double) -> Exchange? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while ended.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        if let subscription { server.unsubscribe(subscription) }
        subscription = nil
        return ended.first
    }
}
