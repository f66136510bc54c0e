import StubdEngine

/// Who sent a request, as far as anything stubd does depends on it — decided here, once per
/// request, by what the request carries, never by who it says it is (`User-Agent`):
///
/// - **A page** is known by `Origin` or `Sec-Fetch-Site` (Fetch Metadata), and only the admin
///   guard and the dashboard ask: web pages may not read or change stubd.
///
/// It changes nothing a client is sent: a fault step goes to every client alike (`Delivery`).
/// A client's silent re-send of a request that got no byte is told by what arrives next (the
/// same bytes, soon after: `ScenarioBook.isResend`), whoever sends it. `ClientProfileTests` is
/// the table.
public struct ClientProfile: Sendable, Equatable {
    /// The request's `Origin`, when a page sent it.
    public let origin: String?
    /// `Sec-Fetch-Site`, `Sec-Fetch-Mode` and `Sec-Fetch-Dest`, lower-cased (nil: absent).
    public let fetchSite: String?, fetchMode: String?, fetchDest: String?
    /// Which request of its connection it is (1: the first), when the engine knows.
    public let connectionRequest: Int?

    /// The profile of `request`.
    public init(_ request: IncomingRequest) {
        origin = request.header("Origin")
        fetchSite = request.header("Sec-Fetch-Site")?.lowercased()
        fetchMode = request.header("Sec-Fetch-Mode")?.lowercased()
        fetchDest = request.header("Sec-Fetch-Dest")?.lowercased()
        connectionRequest = request.connection?.request
    }

    /// Whether a page made the request: it carries `Origin` or `Sec-Fetch-Site` (every current
    /// browser sends `Sec-Fetch-Site` with `-Mode` and `-Dest` on every request to a loopback or
    /// HTTPS origin, same-origin ones included). curl, the test kits and apps send neither; nor
    /// does Node's global `fetch` (undici), whose lone `Sec-Fetch-Mode: cors` no browser sends
    /// without `Sec-Fetch-Site`: it is a client, not a page. The admin guard refuses a page it
    /// does not know.
    public var isPage: Bool { origin != nil || fetchSite != nil }
}
