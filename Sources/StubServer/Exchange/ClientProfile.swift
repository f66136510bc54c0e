import StubdEngine

/// Who sent a request, as far as anything stubd does depends on it — decided here, once per
/// request. Two rules, each stated once (`ClientProfileTests` is their table):
///
/// - **A page** is known by `Origin` or `Sec-Fetch-Site` (Fetch Metadata), and only the admin
///   guard and the dashboard ask: web pages may not read or change stubd.
/// - **A client that re-sends** a request that got no response byte is known by `User-Agent` and
///   the connection's use, and only the journal asks: it marks the silent re-send of a plain fault
///   route so counts leave it out.
///
/// Neither changes what a client is sent: a fault step goes to every client alike (`Delivery`).
/// What each client does is measured (docs/FAULTS.md, conformance/encodings.py); a new
/// measurement changes this file and its table, nothing else.
public struct ClientProfile: Sendable, Equatable {
    /// How a client treats a request that got no response byte.
    public enum Family: Sendable, Equatable {
        /// A browser or WebView: sends `Sec-Fetch-Site` (to a loopback or HTTPS origin) or, to any
        /// origin, a `Mozilla/` User-Agent. Re-sends on any socket it had idle.
        case browser
        /// Re-sends a GET or HEAD even on a fresh connection: Java's HttpClient, aiohttp.
        case resendsReads
        /// Reports the failure without re-sending: Python requests, httpx, Node's `http` and
        /// `fetch` (undici).
        case reportsFailures
        /// Anything else: assumed to re-send once when a reused connection fails (curl,
        /// URLSession, OkHttp).
        case other
    }

    /// The request's `Origin`, when a page sent it.
    public let origin: String?
    /// `Sec-Fetch-Site`, `Sec-Fetch-Mode` and `Sec-Fetch-Dest`, lower-cased (nil: absent).
    public let fetchSite: String?, fetchMode: String?, fetchDest: String?
    /// Its family.
    public let family: Family
    /// Which request of its connection it is (1: the first), when the engine knows.
    public let connectionRequest: Int?
    /// Whether the request is a GET or HEAD (what Java and aiohttp re-send).
    private let isRead: Bool

    /// User-Agent prefixes of clients measured to report a failed request without re-sending it.
    static let reportingAgents = ["python-requests/", "python-httpx/", "node", "undici"]
    /// User-Agent prefixes and inner words of clients measured to re-send a read on any connection.
    static let readResendingAgents = ["Java-http-client/"], readResendingWords = [" aiohttp/"]

    /// The profile of `request`.
    public init(_ request: IncomingRequest) {
        origin = request.header("Origin")
        fetchSite = request.header("Sec-Fetch-Site")?.lowercased()
        fetchMode = request.header("Sec-Fetch-Mode")?.lowercased()
        fetchDest = request.header("Sec-Fetch-Dest")?.lowercased()
        let agent = request.header("User-Agent") ?? ""
        if fetchSite != nil || agent.hasPrefix("Mozilla/") {
            family = .browser
        } else if Self.readResendingAgents.contains(where: { agent.hasPrefix($0) })
                    || Self.readResendingWords.contains(where: { agent.contains($0) }) {
            family = .resendsReads
        } else if Self.reportingAgents.contains(where: { agent.hasPrefix($0) }) {
            family = .reportsFailures
        } else {
            family = .other
        }
        connectionRequest = request.connection?.request
        isRead = request.method == "GET" || request.method == "HEAD"
    }

    /// Whether a page made the request: it carries `Origin` or `Sec-Fetch-Site` (every current
    /// browser sends `Sec-Fetch-Site` with `-Mode` and `-Dest` on every request to a loopback or
    /// HTTPS origin, same-origin ones included). curl, the test kits and apps send neither; nor
    /// does Node's global `fetch` (undici), whose lone `Sec-Fetch-Mode: cors` no browser sends
    /// without `Sec-Fetch-Site`: it is a client, not a page. The admin guard refuses a page it
    /// does not know.
    public var isPage: Bool { origin != nil || fetchSite != nil }

    /// Whether the client will silently re-send this request if it fails before the first
    /// response byte: a browser on any socket; Java's HttpClient and aiohttp for a GET or HEAD on
    /// any connection; any client not known to report such failures, on a reused connection.
    public var resendsAfterNoByteFailure: Bool {
        switch family {
        case .browser: return true
        case .reportsFailures: return false
        case .resendsReads: return isRead
        case .other: return (connectionRequest ?? 1) > 1
        }
    }
}
