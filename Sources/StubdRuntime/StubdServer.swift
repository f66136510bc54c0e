public import StubServer
public import AdminAPI
public import Dashboard
public import StubdEngine
public import Recording
public import Logging
public import StubModel
public import StubdState
public import StubdWebhooks

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
    /// The forward proxy's port (`serve --proxy-port`), on loopback, when it runs.
    public let proxyPort: Int?
    /// The address listened on.
    public let host: String
    /// The owner of the server's state: stubs, scenarios, journal.
    public let admin: SessionStore
    /// The dashboard's page key, write folder and counters.
    public let dashboard: DashboardState
    /// Webhooks sent by routes, and the bound on those under way.
    public let webhooks: WebhookLog
    private let engine: any Engine
    /// Where exchanges go; observers can join and leave while the server runs.
    private let feed: ExchangeFeed
    /// How the server knows the requests it sent itself.
    package let own: OwnTraffic

    init(port: Int, httpsPort: Int?, servesHTTP: Bool, host: String, admin: SessionStore, dashboard: DashboardState, webhooks: WebhookLog,
         engine: any Engine, feed: ExchangeFeed, own: OwnTraffic, proxyPort: Int? = nil) {
        self.port = port
        self.proxyPort = proxyPort
        self.httpsPort = httpsPort
        self.servesHTTP = servesHTTP
        self.host = host
        self.admin = admin
        self.dashboard = dashboard
        self.webhooks = webhooks
        self.engine = engine
        self.feed = feed
        self.own = own
    }

    /// Where the dashboard page is served (`http://127.0.0.1:PORT/__stubd/ui`).
    public static let dashboardPath = AdminContract.prefix + "/ui"

    /// Sends every exchange from now on — request, how it was resolved, the response sent (or
    /// the fault), latency — to `observer`, on the loop that served it, until `unsubscribe`.
    /// For a live view or a test that waits for a request; the observer must not block.
    @discardableResult
    public func subscribe(_ observer: any ExchangeObserver) -> ExchangeSubscription {
        feed.subscribe(observer)
    }

    /// Stops what `subscribe` started.
    public func unsubscribe(_ subscription: ExchangeSubscription) {
        feed.unsubscribe(subscription)
    }

    /// Binds and starts serving; returns once connections are accepted. The same as
    /// `start(table:_:)` with a `Configuration` holding these values (kept so embedding code
    /// written against the long form still compiles).
    public static func start(table: RouteTable, configuration: EngineConfiguration, cors: CORSPolicy? = nil,
                             journalCapacity: Int = 1000, journalBodyLimit: Int = 4096,
                             logger: Logger? = StubdServer.standardErrorLogger, observers: [any ExchangeObserver] = [],
                             access: AdminAccess? = nil, redactor: Redactor = Redactor(),
                             proxy: ProxyUpstream? = nil, recorder: Recorder? = nil,
                             upstreamTLS: UpstreamTLS? = nil) throws(EngineError) -> StubdServer {
        var settings = Configuration(engine: configuration)
        settings.cors = cors
        settings.journalCapacity = journalCapacity
        settings.journalBodyLimit = journalBodyLimit
        settings.logger = logger
        settings.observers = observers
        settings.access = access
        settings.redactor = redactor
        settings.proxy = proxy
        settings.recorder = recorder
        settings.upstreamTLS = upstreamTLS
        return try start(table: table, settings)
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
    public func setScenario(_ name: String, state: String, session: SessionID? = nil) throws(StateBudget.Refusal) {
        try admin.setScenario(name, state: state, session: session)
    }

    /// Serves a newly loaded fixture table; runtime routes stay, fixture sequences restart.
    public func replaceFixtures(_ table: RouteTable) {
        admin.replaceFixtures(table)
    }

    /// Stops accepting, closes every connection and joins the loop threads. Idempotent.
    public func stop() {
        engine.stop()
    }

    /// Stops accepting, lets answers in flight finish for up to `grace` seconds — delayed
    /// replies, streams, scripts, forwarded calls; WebSockets get close 1001 at once — then stops
    /// as `stop()` does (what is still going is cut). `serve`'s SIGTERM and SIGINT do this with
    /// `--shutdown-grace`.
    public func stop(grace: Double) {
        grace > 0 ? engine.drain(grace: grace) : engine.stop()
    }
}
