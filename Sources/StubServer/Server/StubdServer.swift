import Logging
import TargetModel

/// A running stub server: a route table served over HTTP by libevent event loops.
///
/// ```swift
/// let table = try RouteTable(targets: GitHubAPI.allCases)
/// let server = try StubdServer.start(table: table, port: 0)
/// defer { server.stop() }
/// let url = URL(string: "http://127.0.0.1:\(server.port)/zen")!
/// ```
///
/// Thread-safe; several servers may run in one process.
public final class StubdServer: Sendable {
    /// The port actually bound (the ephemeral one when started with port 0).
    public let port: Int
    /// The address listened on.
    public let host: String
    /// The table being served.
    public let table: RouteTable
    private let engine: HTTPEngine

    private init(port: Int, host: String, table: RouteTable, engine: HTTPEngine) {
        self.port = port
        self.host = host
        self.table = table
        self.engine = engine
    }

    /// Binds and starts serving; returns once connections are accepted.
    ///
    /// - Parameter logger: receives one line per request; nil logs nothing.
    public static func start(table: RouteTable, configuration: EngineConfiguration, logger: Logger? = nil) throws(EngineError) -> StubdServer {
        let engine = HTTPEngine(configuration: configuration, responder: StubResponder(table: table, logger: logger))
        let port = try engine.start()
        return StubdServer(port: port, host: configuration.host, table: table, engine: engine)
    }

    /// Starts on `host:port` with default limits.
    public static func start(table: RouteTable, host: String = "127.0.0.1", port: Int = 0, logger: Logger? = nil) throws(EngineError) -> StubdServer {
        var configuration = EngineConfiguration()
        configuration.host = host
        configuration.port = port
        return try start(table: table, configuration: configuration, logger: logger)
    }

    /// `http://host:port`, for building client URLs.
    public var baseURL: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)"
    }

    /// Stops accepting, closes every connection and joins the loop threads. Idempotent.
    public func stop() {
        engine.stop()
    }
}
