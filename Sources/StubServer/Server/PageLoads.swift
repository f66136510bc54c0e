import Synchronization
import StubdEngine

/// The last page a browser loaded from stubd, as much of it as `FaultStepDelivery` needs.
///
/// When a page's answer arrives, Chromium opens one more socket to the page's origin (a
/// preconnect, in its net-log as `is_preconnect: true` for `http://host:port/`, 10 of 10 page
/// loads measured) and leaves it idle; the page's next fetch may take it, and a fetch that fails
/// on it is re-sent as on a reused connection. How long it sat idle depends on how soon the page
/// fetches — a page that fetched 49 ms after its load was read as having opened it for the fetch.
/// So such sockets are known by their place instead, when their first request comes from the
/// page's User-Agent: the first connection accepted after the page's request arrived, and any
/// accepted before it that stayed unused through the page load (a fresh browser may open two
/// sockets for its first page and use one; its preconnect then finds the other and opens none).
final class PageLoads: Sendable {
    private struct Mark {
        /// Connections the server had accepted when the page's request arrived.
        let acceptedSoFar: Int
        /// Whether none of them was open and unused then: only then does the browser open a
        /// socket when the answer arrives.
        let nextIsPreconnect: Bool
        /// The page's User-Agent.
        let agent: String
    }

    private let last = Mutex<Mark?>(nil)

    /// Whether `request` loads a page: a browser sends `Sec-Fetch-Mode: navigate` to a
    /// loopback or HTTPS origin, and `Upgrade-Insecure-Requests: 1` with an HTML `Accept` to
    /// any origin (a LAN address gets no `Sec-Fetch-*` headers).
    static func isPageLoad(_ request: IncomingRequest) -> Bool {
        if let mode = request.header("Sec-Fetch-Mode") { return mode.lowercased() == "navigate" }
        return request.header("Upgrade-Insecure-Requests") == "1" && (request.header("Accept") ?? "").contains("text/html")
    }

    /// Notes a page load being answered.
    func note(_ request: IncomingRequest) {
        guard let connection = request.connection, connection.acceptedSoFar > 0 else { return }
        let mark = Mark(acceptedSoFar: connection.acceptedSoFar, nextIsPreconnect: connection.unusedAtArrival == 0,
                        agent: request.header("User-Agent") ?? "")
        last.withLock { $0 = mark }
    }

    /// Whether `request` is the first on a socket the page's browser opened before it needed it:
    /// when the last page's answer arrived, or before the page and unused through its load.
    func isPreconnect(_ request: IncomingRequest) -> Bool {
        guard let connection = request.connection, connection.request == 1, connection.acceptOrder > 0,
              let mark = last.withLock({ $0 }), (request.header("User-Agent") ?? "") == mark.agent else { return false }
        return connection.acceptOrder <= mark.acceptedSoFar || (connection.acceptOrder == mark.acceptedSoFar + 1 && mark.nextIsPreconnect)
    }
}
