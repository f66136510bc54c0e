package import StubModel
package import StubdEngine
import StubdSystem
import Foundation

/// Cross-origin rules for browser clients: which `Origin`s get `Access-Control-Allow-*` headers,
/// and the answer to preflight `OPTIONS` requests.
///
/// On by default when stubd listens on a loopback address (any origin is allowed: nothing off the
/// machine can reach it), off by default otherwise; `--cors-origin` lists origins, `--no-cors`
/// turns it off.
public struct CORSPolicy: Sendable {
    /// Whether any CORS header is sent.
    public var enabled: Bool
    /// Allowed origins (`https://app.example.com`), or `*` for any.
    public var allowedOrigins: [String]

    /// A policy.
    public init(enabled: Bool, allowedOrigins: [String] = ["*"]) {
        self.enabled = enabled
        self.allowedOrigins = allowedOrigins
    }

    /// The default for a listening address: on for loopback, off otherwise.
    public static func `default`(host: String) -> CORSPolicy {
        CORSPolicy(enabled: System.isLoopbackHost(host))
    }

    /// The headers a response to `request` gets, or none when it has no allowed Origin; the
    /// reply's own header names are exposed. Nothing is built for requests without an Origin.
    package func headers(for request: IncomingRequest, exposing reply: PreparedReply?) -> [NameValue] {
        headers(for: request, exposingHeadersOf: reply?.headers ?? [])
    }

    /// The same, for a reply whose head is `sent` (a stream's).
    /// An answer that sets its own `Access-Control-Allow-Origin` (a fixture's, an upstream's)
    /// keeps its CORS to itself: stubd adds none, so a browser never sees two values (Chromium
    /// refuses such an answer: "contains multiple values").
    package func headers(for request: IncomingRequest, exposingHeadersOf sent: [NameValue]) -> [NameValue] {
        guard let origin = allowed(request), !sent.contains(where: { $0.name.equalsIgnoringCase("Access-Control-Allow-Origin") }) else { return [] }
        var headers = [NameValue("Access-Control-Allow-Origin", origin), NameValue("Access-Control-Allow-Credentials", "true"),
                       NameValue("Vary", "Origin")]
        if !sent.isEmpty {
            headers.append(NameValue("Access-Control-Expose-Headers", sent.map(\.name).joined(separator: ", ")))
        }
        return headers
    }

    /// The answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`),
    /// or nil when the request is not one or its origin is not allowed.
    @inline(__always)
    package func preflight(_ request: IncomingRequest) -> (reply: PreparedReply, headers: [NameValue])? {
        request.method == "OPTIONS" ? preflightAnswer(request) : nil
    }

    private func preflightAnswer(_ request: IncomingRequest) -> (reply: PreparedReply, headers: [NameValue])? {
        guard let method = request.header("Access-Control-Request-Method"), let origin = allowed(request) else { return nil }
        var headers = [NameValue("Access-Control-Allow-Origin", origin), NameValue("Access-Control-Allow-Credentials", "true"),
                       NameValue("Access-Control-Allow-Methods", method), NameValue("Access-Control-Max-Age", "600"),
                       NameValue("Vary", "Origin")]
        if let requested = request.header("Access-Control-Request-Headers") {
            headers.append(NameValue("Access-Control-Allow-Headers", requested))
        }
        return (PreparedReply(status: 204, headers: [], body: []), headers)
    }

    /// Whether a page at `request`'s `Origin` may have a miss forwarded upstream (and read the
    /// answer, and have it recorded): only an origin listed by name (`--cors-origin`, never `*`)
    /// or a page served from this machine (`http://localhost:…`, `http://127.0.0.1:…`,
    /// `http://[::1]:…`). Any other page would turn stubd into an open CORS proxy into the
    /// upstream's network position and plant fixture files. Requests without an `Origin`
    /// (curl, apps) are not pages and always pass.
    /// A page is the one rule `ClientProfile.isPage` states (the admin guard's): a request a page
    /// made without an `Origin` — an `<img>`, a no-cors `fetch` — is known by `Sec-Fetch-Site`, and
    /// passes only from stubd's own origin or typed by the user (`same-origin`, `none`).
    func allowsForwarding(_ client: ClientProfile) -> Bool {
        guard client.isPage else { return true }
        guard let origin = client.origin else { return client.fetchSite == "same-origin" || client.fetchSite == "none" }
        return allowedOrigins.contains(origin) || Self.isLocalPage(origin)
    }

    /// `http(s)://localhost[:port]`, or a loopback address literal as the host.
    static func isLocalPage(_ origin: String) -> Bool {
        let lower = origin.lowercased()
        guard let schemeEnd = lower.range(of: "://"), ["http", "https"].contains(String(lower[..<schemeEnd.lowerBound])) else { return false }
        let authority = String(lower[schemeEnd.upperBound...])
        guard !authority.contains("/"), !authority.contains("@") else { return false }
        guard let host = HostName.normalized(authority) else { return false }
        return System.isLoopbackHost(host)
    }

    private func allowed(_ request: IncomingRequest) -> String? {
        guard enabled, let origin = request.header("Origin") else { return nil }
        return allowedOrigins.contains("*") || allowedOrigins.contains(origin) ? origin : nil
    }
}
