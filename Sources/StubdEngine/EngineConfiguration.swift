import StubdSystem

/// Limits and sizing for the HTTP engine. The defaults suit a local stub server that will also
/// meet fuzzers and load tests: nothing can hold a connection forever or send unbounded input.
public struct EngineConfiguration: Sendable {
    /// Address to listen on.
    public var host: String = "127.0.0.1"
    /// Port; 0 picks a free one (read the real one from the running server).
    public var port: Int = 8080
    /// Whether plain HTTP is served on `port` (false: HTTPS only).
    public var servesHTTP = true
    /// HTTPS on the same loops and route table, when set.
    public var https: HTTPSSettings?
    /// A forward proxy on the same loops and route table, when set (on loopback only).
    public var proxy: ProxySettings?
    /// Event-loop threads sharing the listening socket.
    public var workers: Int = 1
    /// Seconds an idle keep-alive connection, or a request whose headers/body stop arriving, is
    /// kept before it is closed (libevent's read/write timeout).
    public var idleTimeoutSeconds: Double = 30
    /// Largest request line plus headers, in bytes; larger gets 400 and close.
    public var maxHeaderBytes: Int = 64 * 1024
    /// Largest request body, in bytes; larger gets 413 and close.
    public var maxBodyBytes: Int = 32 * 1024 * 1024
    /// Whether a client may speak HTTP/2: by its preface on the plain port (h2c with prior
    /// knowledge). Off, the preface is answered GOAWAY HTTP_1_1_REQUIRED (`serve --http2 off`).
    public var http2 = true
    /// Seconds a `hang` fault holds a connection before the server closes it. Longer than
    /// URLSession's default 60 s request timeout, so the client times out first.
    public var hangCapSeconds: Double = 75
    /// Seconds a connection has to deliver a whole request head, counted from its opening or
    /// from its previous reply and not restarted by each byte (a slowloris client is closed).
    public var headTimeoutSeconds: Double = 10
    /// Open connections at most, shared by the HTTP and HTTPS fronts (accepting pauses at the
    /// cap); nil picks the open-file limit less a reserve (`defaultConnectionCap`), which the
    /// engine first raises to its hard limit.
    public var maxConnections: Int?
    /// Receives rare engine events worth a log line (accept paused for lack of descriptors,
    /// resumed), once per episode.
    public var onEvent: (@Sendable (String) -> Void)?

    /// The defaults.
    public init() {}

    /// The default cap for an open-file limit: three quarters of it after 64 kept for listening
    /// sockets, fixture files and the runtime — the quarter left covers upstream calls and the
    /// descriptors of evicted connections on their way out —, at most 65,536. Under a 20,000
    /// limit that is 14,952, so 10,000 concurrent delayed requests are all answered (it was
    /// clamped to 7,500 before).
    static func defaultConnectionCap(openFileLimit: Int) -> Int {
        max(32, min((openFileLimit - 64) * 3 / 4, 65_536))
    }

    /// The connection cap one worker applies (`maxConnections` shared out between workers).
    var connectionsPerWorker: Int {
        let total = maxConnections ?? Self.defaultConnectionCap(openFileLimit: System.openFileLimit().soft)
        return max(1, total / max(1, workers))
    }
}

/// HTTPS for the engine: where to listen and which certificate to present (TLS 1.2 or later).
public struct HTTPSSettings: Sendable, Equatable {
    /// The port (0 picks a free one).
    public var port: Int
    /// A PEM file with the server certificate first, then any intermediates.
    public var certificateFile: String
    /// The PEM private key of that certificate.
    public var keyFile: String

    /// Creates settings.
    public init(port: Int, certificateFile: String, keyFile: String) {
        self.port = port
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}
