/// What a server needs of an HTTP engine: start serving (every request goes to the handler it
/// was made with), say what it can receive, and stop. `HTTPEngine` (libevent, OpenSSL) is the one
/// stubd ships; `StubdServer` is handed a factory for it, so a test or another front (HTTP/2,
/// WebSocket) can be put in its place without touching routing or the admin API.
public protocol Engine: AnyObject, Sendable {
    /// The methods it can receive and whether it encrypts; routing warns from this.
    var capabilities: EngineCapabilities { get }
    /// Binds and starts serving; returns the ports actually bound. Nothing is served on failure.
    func start() throws(EngineError) -> BoundPorts
    /// Stops serving and waits until no loop runs; requests not yet answered are dropped. Idempotent.
    func stop()
    /// Stops accepting, lets what is in flight finish for up to `grace` seconds (WebSockets are
    /// sent close 1001 at once), then stops as `stop()` does. Returns once no loop runs.
    func drain(grace: Double)
    /// How late its loops run (for metrics); nil when it does not measure.
    var loopLag: LoopLag? { get }
}

extension Engine {
    /// An engine with nothing to finish (in memory) stops at once.
    public func drain(grace: Double) { stop() }
}

/// An engine that can give a session a forward-proxy port of its own (`HTTPEngine`): every
/// request through it belongs to the session, for devices that cannot send proxy credentials.
public protocol SessionProxyPorts: AnyObject, Sendable {
    /// Opens a port for `session`; the port number.
    func openProxyPort(session: String) throws(EngineError) -> Int
    /// Closes it and its connections; false when no such port is open.
    @discardableResult func closeProxyPort(_ port: Int) -> Bool
    /// The open ones: port and session.
    var sessionProxyPorts: [(port: Int, session: String)] { get }
}

/// Makes an engine for its configuration and the handler every request is given to.
public typealias EngineFactory = @Sendable (EngineConfiguration, any EngineHandler) -> any Engine

/// The ports an engine bound: HTTP unless it serves HTTPS only, HTTPS when configured.
public struct BoundPorts: Sendable, Equatable {
    /// The plain HTTP port.
    public var http: Int?
    /// The HTTPS port.
    public var https: Int?
    /// The forward proxy's port (`EngineConfiguration.proxy`).
    public var proxy: Int?
    /// The loopback ports of the proxy's interception fronts (reached only through its tunnels):
    /// stubd's own listeners too, which nothing it passes on may reach.
    public var interception: [Int] = []

    /// Ports as bound.
    public init(http: Int? = nil, https: Int? = nil, proxy: Int? = nil) {
        self.http = http
        self.https = https
        self.proxy = proxy
    }
}
