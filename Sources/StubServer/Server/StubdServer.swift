import Logging
import StubModel
import TargetModel

/// A running stub server: stubs served over HTTP by libevent event loops, changeable at runtime,
/// with a request journal. Embed it in a test:
///
/// ```swift
/// let server = try StubdServer.start(table: try RouteTable(targets: GitHubAPI.all), port: 0)
/// defer { server.stop() }
/// try server.add(targets: [FailingZen()], session: "test-42")   // this test only
/// // … run the client against server.baseURL with header X-Stubd-Session: test-42 …
/// #expect(server.count(JournalQuery(path: "/zen", session: "test-42")) == 1)
/// ```
///
/// Thread-safe; several servers may run in one process. Every change goes through `admin`, the
/// same facade the admin API uses.
public final class StubdServer: Sendable {
    /// The port actually bound (the ephemeral one when started with port 0): HTTP's, or HTTPS's
    /// when only HTTPS is served.
    public let port: Int
    /// The HTTPS port, when HTTPS is served.
    public let httpsPort: Int?
    /// Whether plain HTTP is served on `port`.
    public let servesHTTP: Bool
    /// The address listened on.
    public let host: String
    /// The owner of the server's state: stubs, scenarios, journal.
    public let admin: StubAdmin
    private let engine: HTTPEngine

    private init(port: Int, httpsPort: Int?, servesHTTP: Bool, host: String, admin: StubAdmin, engine: HTTPEngine) {
        self.port = port
        self.httpsPort = httpsPort
        self.servesHTTP = servesHTTP
        self.host = host
        self.admin = admin
        self.engine = engine
    }

    /// Binds and starts serving; returns once connections are accepted.
    ///
    /// - Parameters:
    ///   - cors: nil picks the default for `configuration.host` (on for loopback).
    ///   - journalCapacity: requests kept in the journal (0 keeps none).
    ///   - logger: receives one line per request, as the CLI prints them (default: standard
    ///     error, so a test that embeds stubd shows what it served); nil logs nothing.
    ///   - observers: more subscribers to every exchange, after the journal and the log line.
    ///   - access: who may use the admin API; nil is the default for `configuration.host`
    ///     (this machine only on loopback, nobody elsewhere).
    ///   - redactor: what the journal, log lines and near-miss reports hide; `.off` shows all.
    ///   - proxy: where requests no stub matches are forwarded (`--proxy-unmatched`); nil answers
    ///     them with the near-miss 404.
    ///   - recorder: records what the proxy's upstream answers (`--record`, `stubd record`).
    ///   - upstreamTLS: how HTTPS upstreams named later (admin recording) are trusted; default
    ///     the proxy's, else the system trust store.
    public static func start(table: RouteTable, configuration: EngineConfiguration, cors: CORSPolicy? = nil,
                             journalCapacity: Int = 1000, journalBodyLimit: Int = 4096,
                             logger: Logger? = StubdServer.standardErrorLogger, observers: [any ExchangeObserver] = [],
                             access: AdminAccess? = nil, redactor: Redactor = Redactor(),
                             proxy: ProxyUpstream? = nil, recorder: Recorder? = nil,
                             upstreamTLS: UpstreamTLS? = nil) throws(EngineError) -> StubdServer {
        let journal = RequestJournal(capacity: journalCapacity, bodyLimit: journalBodyLimit, redactor: redactor)
        let forwarding = Forwarding(proxy.map { Forwarding.Target(upstream: $0, recorder: recorder) },
                                    upstreamTLS: upstreamTLS ?? proxy?.tls ?? UpstreamTLS(), log: { line in logger?.info("\(line)") })
        let webhooks = WebhookLog(log: { line in logger?.info("\(line)") })
        let admin = StubAdmin(fixtures: table, journal: journal, forwarding: forwarding, webhooks: webhooks)
        var subscribers: [any ExchangeObserver] = journalCapacity > 0 ? [journal] : []
        if let logger { subscribers.append(ExchangeLogLine(logger: logger, redactor: redactor)) }
        var configuration = configuration
        if configuration.onEvent == nil, let logger {
            configuration.onEvent = { logger.warning("\($0)") }
        }
        let handler = StubHandler(admin: admin, cors: cors ?? .default(host: configuration.host),
                                  access: access ?? AdminAccess(host: configuration.host), redactor: redactor,
                                  feed: ExchangeFeed(observers: subscribers + observers))
        let engine = HTTPEngine(configuration: configuration, handler: handler)
        let ports = try engine.start()
        return StubdServer(port: ports.http ?? ports.https ?? 0, httpsPort: ports.https, servesHTTP: ports.http != nil,
                           host: configuration.host, admin: admin, engine: engine)
    }

    /// Starts on `host:port` with default limits.
    public static func start(table: RouteTable, host: String = "127.0.0.1", port: Int = 0,
                             logger: Logger? = StubdServer.standardErrorLogger) throws(EngineError) -> StubdServer {
        var configuration = EngineConfiguration()
        configuration.host = host
        configuration.port = port
        return try start(table: table, configuration: configuration, logger: logger)
    }

    /// The embedded server's default: the CLI's line format on standard error, whatever logging
    /// backend the host process bootstrapped.
    public static let standardErrorLogger = Logger(label: "stubd", factory: { label in StreamLogHandler.standardError(label: label) })

    /// `http://host:port` (`https://…` when only HTTPS is served), for building client URLs.
    public var baseURL: String {
        servesHTTP ? "http://\(shownHost):\(port)" : httpsBaseURL!
    }

    /// `https://host:port` when HTTPS is served.
    public var httpsBaseURL: String? {
        httpsPort.map { "https://\(shownHost):\($0)" }
    }

    private var shownHost: String { host.contains(":") ? "[\(host)]" : host }

    /// The last requests served.
    public var journal: RequestJournal { admin.journal }

    /// The fixture routes being served.
    public var table: RouteTable { admin.fixtures }

    /// Adds runtime routes, for one session (requests with `X-Stubd-Session: session`) or all.
    @discardableResult
    public func add(_ fixtures: [Fixture], session: SessionID? = nil) throws(RouteTableError) -> [RouteID] {
        try admin.add(fixtures, session: session)
    }

    /// Adds Swift targets as runtime routes.
    @discardableResult
    public func add(targets: [any TargetType], session: SessionID? = nil) throws(RouteTableError) -> [RouteID] {
        try admin.add(try RouteTable.fixtures(for: targets), session: session)
    }

    /// Removes a runtime route by id.
    public func remove(id: RouteID) throws(StoreError) {
        try admin.remove(id: id)
    }

    /// Back to the loaded fixtures for one session (runtime routes, scenarios, sequences,
    /// journal), or for everything.
    public func reset(session: SessionID? = nil) {
        admin.reset(session: session)
    }

    /// Journal entries matching `query`, oldest first.
    public func requests(_ query: JournalQuery = JournalQuery()) -> [JournalEntry] {
        admin.requests(query)
    }

    /// How many journal entries match `query`.
    public func count(_ query: JournalQuery = JournalQuery()) -> Int {
        admin.count(query)
    }

    /// The state of a scenario (`Started` until a stub moves it).
    public func scenarioState(_ name: String, session: SessionID? = nil) -> String {
        admin.scenarioState(name, session: session)
    }

    /// Forces a scenario into a state.
    public func setScenario(_ name: String, state: String, session: SessionID? = nil) {
        admin.setScenario(name, state: state, session: session)
    }

    /// Serves a newly loaded fixture table; runtime routes stay, fixture sequences restart.
    public func replaceFixtures(_ table: RouteTable) {
        admin.replaceFixtures(table)
    }

    /// Stops accepting, closes every connection and joins the loop threads. Idempotent.
    public func stop() {
        engine.stop()
    }
}
