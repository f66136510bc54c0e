public import StubServer
public import StubdProxy
public import AdminAPI
import Dashboard
public import StubdEngine
public import Recording
public import Logging
import StubModel
public import StubdEngine
public import StubdState
import StubdTemplates
import StubdWebhooks

extension StubdServer {
    /// Everything a server is started with, as one value: the engine's limits and ports, who may
    /// use the admin API, what the journal keeps and hides, where misses go, and the one logger
    /// and one redactor the whole server uses (journal, log lines, near-miss reports, webhooks).
    /// Defaults are the CLI's.
    public struct Configuration: Sendable {
        /// Ports, loops, limits and timeouts of the engine.
        public var engine: EngineConfiguration
        /// Cross-origin rules for the stubs; nil picks the default for `engine.host` (on for
        /// loopback).
        public var cors: CORSPolicy?
        /// Requests kept in the journal (0 keeps none).
        public var journalCapacity = 1000
        /// Body bytes kept per journal entry.
        public var journalBodyLimit = 4096
        /// Receives one line per request, as the CLI prints them (default: standard error, so a
        /// test that embeds stubd shows what it served); nil logs nothing.
        public var logger: Logger? = StubdServer.standardErrorLogger
        /// More subscribers to every exchange, after the journal and the log line.
        public var observers: [any ExchangeObserver] = []
        /// Who may use the admin API; nil is the default for `engine.host` (this machine only on
        /// loopback, nobody elsewhere).
        public var access: AdminAccess?
        /// What the journal, log lines and near-miss reports hide; `.off` shows all.
        public var redactor = Redactor()
        /// Where requests no stub matches are forwarded (`--proxy-unmatched`); nil answers them
        /// with the near-miss 404.
        public var proxy: ProxyUpstream?
        /// Records what the proxy's upstream answers (`--record`, `stubd record`).
        public var recorder: Recorder?
        /// How HTTPS upstreams named later (admin recording) are trusted; nil: the proxy's, else
        /// the system trust store.
        public var upstreamTLS: UpstreamTLS?
        /// The folder the dashboard may write fixture files into (`--ui-write-dir`); nil: off.
        public var uiWriteDirectory: String?
        /// Byte bounds of what sessions keep (`--store-value-limit`, `--store-session-limit`, `--store-limit`).
        public var stateLimits = StateBudget.Limits()
        /// The most bytes one templated answer or webhook may reach (`--template-output-limit`).
        public var templateOutputLimit = TemplateState.defaultOutputLimit
        /// How fast streams play (`--replay-speed`): pauses between events divided by this;
        /// `.infinity` sends every event at once. Default 1: as written or recorded.
        public var replaySpeed: Double = 1
        /// What the forward proxy (`engine.proxy`) does with hosts no route names.
        public var unroutedHosts: UnroutedHosts = .refuse
        /// `host:port` → the address the forward proxy connects to instead of resolving the host
        /// (`--resolve`), when it passes or records.
        public var proxyResolve: [String: String] = [:]
        /// `host:port` destinations a webhook whose URL the request chose may reach although they
        /// are this stubd (`--webhook-allow`); its admin API stays out of reach.
        public var webhookAllowed: [String] = []
        /// Makes the engine that serves: libevent's by default. Another front (a test double, a
        /// later HTTP/2 engine) is handed in here; the server only needs the `Engine` protocol.
        public var makeEngine: EngineFactory = { HTTPEngine(configuration: $0, handler: $1) }

        /// The defaults, on `engine`.
        public init(engine: EngineConfiguration = EngineConfiguration()) {
            self.engine = engine
        }
    }

    /// Binds and starts serving `table` as `configuration` says; returns once connections are
    /// accepted.
    public static func start(table: RouteTable, _ configuration: Configuration) throws(EngineError) -> StubdServer {
        let logger = configuration.logger
        let redactor = configuration.redactor
        let journal = RequestJournal(capacity: configuration.journalCapacity, bodyLimit: configuration.journalBodyLimit, redactor: redactor)
        let proxy = configuration.proxy
        let forwarding = Forwarding(proxy.map { Forwarding.Target(upstream: $0, recorder: configuration.recorder) },
                                    upstreamTLS: configuration.upstreamTLS ?? proxy?.tls ?? UpstreamTLS(), log: { line in logger?.info("\(line)") })
        let webhooks = WebhookLog(log: { line in logger?.info("\(line)") })
        let dashboardState = DashboardState(writeDirectory: configuration.uiWriteDirectory)
        let proxyPorts = ProxyPortsAdmin(proxyHost: configuration.engine.proxy?.host)
        let admin = SessionStore(fixtures: table, journal: journal, forwarding: forwarding, otherStores: [webhooks, proxyPorts],
                              limits: configuration.stateLimits, templateOutputLimit: configuration.templateOutputLimit,
                              streamSpeed: configuration.replaySpeed)
        let own = OwnTraffic(allowedDestinations: configuration.webhookAllowed)
        // Every exchange, once answered: the journal first (the dashboard's stream follows it),
        // then the metrics, webhooks, the recorder and the log line.
        var subscribers: [any ExchangeObserver] = (configuration.journalCapacity > 0 ? [journal] : []) + [dashboardState.metrics]
        subscribers.append(WebhookObserver(log: webhooks, redactor: redactor, own: own, state: admin.templates, collections: admin))
        subscribers.append(RecordingObserver())
        if let logger { subscribers.append(ExchangeLogLine(logger: logger, redactor: redactor)) }
        var engineConfiguration = configuration.engine
        if engineConfiguration.onEvent == nil, let logger {
            engineConfiguration.onEvent = { logger.warning("\($0)") }
        }
        let host = engineConfiguration.host
        let feed = ExchangeFeed(observers: subscribers + configuration.observers)
        // The admin API, with the dashboard's endpoints beside the standard ones.
        let dashboard = Dashboard(state: dashboardState)
        let service = AdminService(state: admin, access: configuration.access ?? AdminAccess(host: host), extra: dashboard.endpoints + WebhooksAdmin.endpoints(webhooks) + proxyPorts.endpoints,
                                   pageKey: dashboardState.uiKey)
        let handler = StubHandler(admin: admin, responder: service, cors: configuration.cors ?? .default(host: host),
                                  redactor: redactor, feed: feed, own: own)
        let front: any EngineHandler = engineConfiguration.proxy == nil ? handler
            : ProxyGate(stubs: handler, admin: admin, feed: feed, unrouted: configuration.unroutedHosts, own: own,
                        passage: ProxyPassage(resolve: configuration.proxyResolve, tls: configuration.upstreamTLS ?? configuration.proxy?.tls ?? UpstreamTLS(),
                                              recorder: configuration.unroutedHosts == .record ? configuration.recorder : nil))
        let engine = configuration.makeEngine(engineConfiguration, front)
        let ports = try engine.start()
        if let sessionPorts = engine as? any SessionProxyPorts, configuration.engine.proxy != nil { proxyPorts.attach(sessionPorts) }
        own.listening(on: [ports.http, ports.https, ports.proxy].compactMap { $0 } + ports.interception)
        dashboardState.measure(engine.loopLag)
        return StubdServer(port: ports.http ?? ports.https ?? 0, httpsPort: ports.https, servesHTTP: ports.http != nil,
                           host: host, admin: admin, dashboard: dashboardState, webhooks: webhooks, engine: engine, feed: feed, own: own,
                           proxyPort: ports.proxy)
    }
}
