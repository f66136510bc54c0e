import StubdEngine

/// Who sent a request, as far as anything stubd does depends on it — decided here, once per
/// request, from Fetch Metadata, `Origin`, `User-Agent` and the connection's use. The admin guard,
/// the dashboard and the Delivery stage read it, so "a page", "a browser" and "a client that
/// re-sends" each have one definition (`ClientProfileTests` is its table). What each should be
/// for clients that look like another is measured per client (docs/FAULTS.md, docs/SECURITY.md);
/// a new measurement changes this file and its table, nothing else.
public struct ClientProfile: Sendable, Equatable {
    /// The client families whose handling of a failed request differs.
    public enum Family: Sendable, Equatable {
        /// A browser or WebView: sends `Sec-Fetch-Site` (to a loopback or HTTPS origin) or, to any
        /// origin, a `Mozilla/` User-Agent. Re-sends after a no-byte failure on any socket it had
        /// idle, so fault steps reach it as broken framing.
        case browser
        /// Java's HttpClient: re-sends a GET or HEAD that got no byte, even on a fresh connection.
        case javaHTTPClient
        /// Measured to report a failed reused connection without re-sending (Python requests,
        /// Node's `http`, undici).
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
    /// Whether the request is a GET or HEAD (what Java re-sends).
    private let isRead: Bool

    /// User-Agent prefixes of clients measured to report a failed reused connection without
    /// re-sending the request: holding a step for them would fail their next request too.
    static let reportingAgents = ["python-requests/", "node", "undici"]

    /// The profile of `request`.
    public init(_ request: IncomingRequest) {
        origin = request.header("Origin")
        fetchSite = request.header("Sec-Fetch-Site")?.lowercased()
        fetchMode = request.header("Sec-Fetch-Mode")?.lowercased()
        fetchDest = request.header("Sec-Fetch-Dest")?.lowercased()
        let agent = request.header("User-Agent") ?? ""
        if fetchSite != nil || agent.hasPrefix("Mozilla/") {
            family = .browser
        } else if agent.hasPrefix("Java-http-client/") {
            family = .javaHTTPClient
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

    /// Whether a browser sent it.
    public var isBrowser: Bool { family == .browser }

    /// Whether a client other than a browser will re-send this request if it fails before the
    /// first response byte: Java's HttpClient for a GET or HEAD on any connection; any client not
    /// known to report such failures, on a reused connection.
    public var resendsAfterNoByteFailure: Bool {
        switch family {
        case .browser, .reportsFailures: return false
        case .javaHTTPClient: return isRead
        case .other: return (connectionRequest ?? 1) > 1
        }
    }
}
