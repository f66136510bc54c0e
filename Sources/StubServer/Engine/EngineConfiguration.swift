/// Limits and sizing for the HTTP engine. The defaults suit a local stub server that will also
/// meet fuzzers and load tests: nothing can hold a connection forever or send unbounded input.
public struct EngineConfiguration: Sendable {
    /// Address to listen on.
    public var host: String = "127.0.0.1"
    /// Port; 0 picks a free one (read the real one from the running server).
    public var port: Int = 8080
    /// Event-loop threads sharing the listening socket.
    public var workers: Int = 1
    /// Seconds an idle keep-alive connection, or a request whose headers/body stop arriving, is
    /// kept before it is closed (libevent's read/write timeout).
    public var idleTimeoutSeconds: Double = 30
    /// Largest request line plus headers, in bytes; larger gets 400 and close.
    public var maxHeaderBytes: Int = 64 * 1024
    /// Largest request body, in bytes; larger gets 413 and close.
    public var maxBodyBytes: Int = 32 * 1024 * 1024
    /// Seconds a `hang` fault holds a connection before the server closes it. Longer than
    /// URLSession's default 60 s request timeout, so the client times out first.
    public var hangCapSeconds: Double = 75

    /// The defaults.
    public init() {}
}
