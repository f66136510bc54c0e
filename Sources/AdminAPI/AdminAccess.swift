import AdminContract
import Foundation
import StubModel
import StubServer
import StubdSystem
import StubdEngine
import StubdState

/// Who may use the admin API (`/__stubd/…`). Stubs are served to everyone; the admin API changes
/// what they answer and reads the journal, so by default only its owner can reach it:
///
/// - on a loopback bind, the peer must be loopback and `Host` a loopback name or address
///   (`localhost`, `127.0.0.1`, `[::1]`, any port) or a name given with `--allowed-host` — which
///   stops DNS rebinding;
/// - on any other bind, every admin request needs `Authorization: Bearer TOKEN`
///   (`--admin-token`), and without a token the admin API is off;
/// - a request a browser made — it carries an `Origin`, or the `Sec-Fetch-*` headers every
///   current browser adds to every request, same-origin ones included — is refused unless
///   `--admin-cors-origin` lists its origin (only listed origins get CORS answers), or it carries
///   the server's page key (`X-Stubd-UI`, which only the dashboard page holds) and, with an
///   `Origin`, that origin is exactly this server's as the request reached it, or it is a
///   `GET` the user typed into the address bar (`Sec-Fetch-Site: none`, a navigation). So a stub
///   served on stubd's own origin (an HTML page a template echoes) cannot read the journal: its
///   same-origin fetch has no `Origin` but is marked `Sec-Fetch-Site: same-origin`;
/// - a write with a body must say `Content-Type: application/json`, so an HTML form (which can
///   only send form or text types) cannot forge one.
public struct AdminAccess: Sendable {
    /// How requests prove they belong to the owner.
    public enum Mode: Sendable, Equatable {
        /// Loopback peers with a loopback (or allowed) Host.
        case loopback
        /// A bearer token on every request.
        case token(String)
        /// Nobody (a non-loopback bind without a token).
        case disabled
    }

    /// How requests are checked.
    public var mode: Mode
    /// Extra Host names accepted on a loopback bind (lower-case).
    public var allowedHosts: Set<String>
    /// Origins (web pages) allowed to call the admin API, with CORS answers.
    public var corsOrigins: [String]
    /// One of several instances (`--sessions-only`): admin writes must name a session, since a
    /// load balancer hashing on `X-Stubd-Session` sends a write without one to one instance only.
    public var sessionsOnly = false

    /// Access for a server listening on `host`.
    public init(host: String, token: String? = nil, allowedHosts: [String] = [], corsOrigins: [String] = []) {
        if let token, !token.isEmpty {
            mode = .token(token)
        } else {
            mode = System.isLoopbackHost(host) ? .loopback : .disabled
        }
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.corsOrigins = corsOrigins
    }

    /// Anyone (in-process tests that drive the admin API through the embedding API only).
    public static let open = AdminAccess(mode: .loopback, allowedHosts: [], corsOrigins: [])

    private init(mode: Mode, allowedHosts: Set<String>, corsOrigins: [String]) {
        self.mode = mode
        self.allowedHosts = allowedHosts
        self.corsOrigins = corsOrigins
    }

    /// One line for the banner.
    public var summary: String {
        switch mode {
        case .loopback:
            let extra = allowedHosts.isEmpty ? "" : " and " + allowedHosts.sorted().joined(separator: ", ")
            return "admin API at /__stubd/ for this machine only (Host localhost, 127.0.0.1 or [::1]\(extra))"
        case .token:
            return "admin API at /__stubd/ requires Authorization: Bearer <--admin-token>"
        case .disabled:
            return "admin API off: this address is reachable from other machines; set --admin-token (or STUBD_ADMIN_TOKEN) to use it"
        }
    }

    /// The refusal for an admin write without a session on one of several instances, or nil.
    func sessionRefusal(for request: IncomingRequest, session: SessionID?) -> PreparedReply? {
        guard sessionsOnly, session == nil, !["GET", "HEAD", "OPTIONS"].contains(request.method) else { return nil }
        return JSONReply.error("this stubd is one of several instances (--sessions-only): a \(request.method) without X-Stubd-Session would change this instance only", status: 409,
                                problems: ["send X-Stubd-Session: ID with the call and with the requests it is for (the kit's sessions do)",
                                           "or put the route in the fixtures every instance serves"])
    }

    /// Whether `origin` may call the admin API from a browser.
    func allowsOrigin(_ origin: String) -> Bool {
        corsOrigins.contains("*") || corsOrigins.contains(origin)
    }

    /// The refusal for the dashboard page itself (`GET /__stubd/ui`, its script): with a token
    /// the page is served to anyone who passes the other checks — it holds no secret, and every
    /// call it makes asks for the token — because a browser's navigation cannot send one. A
    /// browser gets the page only as a navigation (from any site: a page of another origin, or a
    /// stub, that opens it cannot read it — `Cross-Origin-Opener-Policy: same-origin`, no
    /// framing) and the script only as a script.
    func pageRefusal(for request: IncomingRequest, client: ClientProfile) -> PreparedReply? {
        if case .token = mode { return originRefusal(for: request, client: client, uiKey: nil, page: true) }
        return refusal(for: request, client: client, uiKey: nil, page: true)
    }

    /// The refusal for a request that may not use the admin API, or nil when it may. `uiKey` is
    /// the dashboard page's key (see `isOwnPage`).
    /// `client`: the request's profile (made here when not given).
    func refusal(for request: IncomingRequest, client: ClientProfile? = nil, uiKey: String? = nil, page: Bool = false) -> PreparedReply? {
        // Through the proxy (its port or an intercepted tunnel, whose peer is stubd's own
        // loopback connection) nobody is a loopback caller, and no token is asked for either.
        if request.proxied != nil {
            return JSONReply.error("stubd's admin API is not reachable through its proxy", status: 403, problems: ["call it on stubd's own port"])
        }
        switch mode {
        case .disabled:
            return JSONReply.error("the admin API is off on a non-loopback address", status: 403,
                                    problems: ["start stubd with --admin-token TOKEN (or STUBD_ADMIN_TOKEN) and send Authorization: Bearer TOKEN"])
        case .token(let token):
            guard let presented = Self.bearerToken(request.header("Authorization")), Self.isTokenText(presented),
                  System.constantTimeEquals(presented, token) else {
                let reply = JSONReply.error("the admin API needs Authorization: Bearer TOKEN", status: 401,
                                             problems: ["send the token given with --admin-token (or STUBD_ADMIN_TOKEN)"])
                return PreparedReply(status: 401, headers: reply.headers + [NameValue("WWW-Authenticate", "Bearer")], body: reply.body)
            }
        case .loopback:
            guard System.isLoopbackHost(request.peer) || request.peer.isEmpty else {
                return JSONReply.error("the admin API answers this machine only; \(request.peer) is another", status: 403,
                                        problems: ["listen on a non-loopback address with --host and set --admin-token to administer stubd from elsewhere"])
            }
            let host = request.header("Host").flatMap(HostName.normalized)
            guard let host, System.isLoopbackHost(host) || host == "localhost" || allowedHosts.contains(host) else {
                let shown = request.header("Host").map { "Host: \($0)" } ?? "no Host header"
                return JSONReply.error("the admin API does not answer \(shown)", status: 403,
                                        problems: ["use http://127.0.0.1 or http://localhost, or allow the name with --allowed-host \(host ?? "NAME")"])
            }
        }
        return originRefusal(for: request, client: client ?? ClientProfile(request), uiKey: uiKey, page: page)
    }

    private func originRefusal(for request: IncomingRequest, client: ClientProfile, uiKey: String?, page: Bool) -> PreparedReply? {
        if let refusal = browserRefusal(for: request, client: client, uiKey: uiKey, page: page) { return refusal }
        if ["POST", "PUT", "PATCH", "DELETE"].contains(request.method) {
            let type = request.header("Content-Type")
            let isJSON = type.map { MediaType($0)?.essence == "application/json" } ?? false
            if (type != nil || !request.body.isEmpty) && !isJSON {
                return JSONReply.error("admin writes must be JSON (Content-Type: \(type ?? "none"))", status: 415,
                                        problems: ["send Content-Type: application/json (curl: -H 'Content-Type: application/json')"])
            }
        }
        return nil
    }

    /// The refusal for a request a browser made on behalf of a page that is not the dashboard
    /// (see the type's rules), or nil. Requests without `Origin` and `Sec-Fetch-*` — curl, the test
    /// kit, apps — are not a page's and pass.
    private func browserRefusal(for request: IncomingRequest, client: ClientProfile, uiKey: String?, page: Bool) -> PreparedReply? {
        let origin = client.origin
        if let origin, allowsOrigin(origin) { return nil }
        let site = client.fetchSite, mode = client.fetchMode, destination = client.fetchDest
        guard client.isPage else { return nil }
        if let origin {
            if Self.isOwnPage(request, origin: origin, uiKey: uiKey) { return nil }
        } else if Self.carriesKey(request, uiKey: uiKey) {
            return nil
        }
        let reading = request.method == "GET" || request.method == "HEAD"
        // The dashboard page as a navigation, its script as a script and its styles as a style
        // sheet (neither holds anything of the journal); any GET typed by the user.
        if reading, origin == nil, page, mode == "navigate" || destination == "script" || destination == "style" { return nil }
        if reading, origin == nil, site == "none", mode == "navigate" { return nil }
        let from = origin.map { "Origin: \($0)" } ?? "Sec-Fetch-Site: \(site ?? "unknown")"
        return JSONReply.error("web pages may not read or change stubd's admin API (\(from))", status: 403,
                                problems: ["open \(AdminContract.prefix)/ui in the address bar for the dashboard, or use curl or the test kit",
                                           "allow this page with --admin-cors-origin \(origin ?? "ORIGIN")"])
    }

    /// Whether the request carries this server's page key.
    static func carriesKey(_ request: IncomingRequest, uiKey: String?) -> Bool {
        guard let uiKey, let presented = request.header("X-Stubd-UI") else { return false }
        return System.constantTimeEquals(presented, uiKey)
    }

    /// Whether a presented token is free of control characters: `Bearer T\0junk` is refused
    /// rather than compared (C strings down the line would read only `T`).
    static func isTokenText(_ token: String) -> Bool {
        !token.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Whether a request with `origin` comes from the dashboard page this server served: the
    /// origin is this server's as the request reached it (`http://` or `https://` + `Host`,
    /// case-insensitive) and the request carries the page key. A page from any other origin
    /// cannot send the key without a CORS preflight, which is refused; one of this origin that is
    /// not the dashboard (an HTML stub) does not know the key.
    static func isOwnPage(_ request: IncomingRequest, origin: String, uiKey: String?) -> Bool {
        guard carriesKey(request, uiKey: uiKey), let host = request.header("Host") else { return false }
        return origin.lowercased() == (request.isTLS ? "https://" : "http://") + host.lowercased()
    }

    /// The token of `Authorization: Bearer TOKEN`; the scheme is case-insensitive (RFC 9110
    /// §11.1), so `bearer` and `BEARER` are the same.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }),
              trimmed[..<space].lowercased() == "bearer" else { return nil }
        let token = trimmed[space...].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

}
