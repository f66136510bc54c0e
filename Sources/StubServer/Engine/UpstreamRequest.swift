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

/// What the upstream did.
public enum UpstreamResponse: Sendable {
    /// It answered.
    case answered(status: Int, headers: [NameValue], body: [UInt8])
    /// It could not be reached or did not answer in time; the reason, for a 502.
    case failed(String)
}
