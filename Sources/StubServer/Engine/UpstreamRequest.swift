import StubModel

/// A request for another server, made by the engine on the loop of the request it serves (so
/// no loop ever blocks on it): `ReplyHandle.fetch`.
public struct UpstreamRequest: Sendable {
    /// The upstream's host name or address.
    public var host: String
    /// Its port.
    public var port: Int
    /// The method.
    public var method: String
    /// Path and query, as sent on the request line (`/v1/users?x=1`).
    public var target: String
    /// Headers to send (the caller sets `Host`).
    public var headers: [NameValue]
    /// The body.
    public var body: [UInt8]
    /// Seconds to wait for the whole answer.
    public var timeoutSeconds: Double
    /// HTTPS settings; nil for plain HTTP.
    public var tls: UpstreamTLS?

    /// Creates a request.
    public init(host: String, port: Int, method: String, target: String, headers: [NameValue], body: [UInt8], timeoutSeconds: Double = 30) {
        self.host = host
        self.port = port
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
    }
}

/// How an HTTPS upstream is trusted: the system's trust store (or `caFile`), SNI and host-name
/// verification always, unless `verify` is off (`--insecure-upstream`, only when asked).
public struct UpstreamTLS: Sendable, Hashable {
    /// A PEM file of CA certificates trusted instead of the system store (a private CA).
    public var caFile: String?
    /// Check the certificate chain and the host name.
    public var verify: Bool

    /// Creates settings; the default verifies against the system trust store.
    public init(caFile: String? = nil, verify: Bool = true) {
        self.caFile = caFile
        self.verify = verify
    }
}

/// What the upstream did.
public enum UpstreamResponse: Sendable {
    /// It answered.
    case answered(status: Int, headers: [NameValue], body: [UInt8])
    /// It could not be reached or did not answer in time; the reason, for a 502.
    case failed(String)
}
