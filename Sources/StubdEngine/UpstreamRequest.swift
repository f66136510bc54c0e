public import StubdHTTP

/// A request for another server, made by the engine on the loop of the request it serves (so
/// no loop ever blocks on it): `UpstreamClient.fetch`.
public struct UpstreamRequest: Sendable {
    /// The upstream's host name or address (TLS's SNI and certificate check use it).
    public var host: String
    /// The address to connect to instead of resolving `host` (curl's `--resolve`); nil resolves.
    public var address: String?
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
    /// Relay large answers to the client as they arrive instead of holding them whole; nil
    /// always holds the whole answer.
    public var relay: UpstreamRelay?

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

/// When an upstream's answer goes to the client as it arrives (a large download, a stream)
/// instead of after its last byte: bodies longer than `above` bytes, or of unknown length.
public struct UpstreamRelay: Sendable {
    /// Bodies up to this many bytes (by `Content-Length`) are held whole.
    public var above: Int
    /// Body bytes of a relayed answer kept for the caller (a recorder); beyond it, none.
    public var keepLimit: Int
    /// The headers the client gets for the upstream's status and headers (the engine adds the
    /// framing: `Content-Length` when the upstream gave one, else chunked).
    public var headers: @Sendable (_ status: Int, _ upstreamHeaders: [NameValue]) -> [NameValue]

    /// Creates a relay policy.
    public init(above: Int, keepLimit: Int, headers: @escaping @Sendable (_ status: Int, _ upstreamHeaders: [NameValue]) -> [NameValue]) {
        self.above = above
        self.keepLimit = keepLimit
        self.headers = headers
    }
}

/// What the upstream did.
public enum UpstreamResponse: Sendable {
    /// It answered.
    case answered(status: Int, headers: [NameValue], body: [UInt8])
    /// It answered and the engine has already sent the answer to the client as it arrived
    /// (`UpstreamRequest.relay`); `body` is the whole body when it fitted the keep limit and
    /// arrived complete, else nil, and `arrivals` say when each piece of it came (for a stream's
    /// timing). Complete the reply handle with `ReplyPlan.alreadySent`.
    case relayed(status: Int, headers: [NameValue], body: [UInt8]?, arrivals: [StreamArrival])
    /// It could not be reached or did not answer in time; the reason, for a 502.
    case failed(String)
}
