import ArgumentParser
import Dispatch
import Foundation
import Logging
import StubModel
import StubdProxy
import StubdRuntime
import StubdSystem

/// `stubd serve`: serve fixtures until SIGINT or SIGTERM.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve fixtures over HTTP (the default command).",
        discussion: """
              $ stubd serve fixtures --port 0
              stubd: serving 7 routes from fixtures on http://127.0.0.1:41237
            """
    )

    @OptionGroup var fixtureArguments: FixtureArguments

    @OptionGroup(title: "Where it listens") var listen: ListenArguments

    @OptionGroup(title: "Forward proxy") var proxy: ProxyArguments

    @OptionGroup(title: "Scripts and supervisors") var readiness: ReadinessArguments

    @OptionGroup(title: "Stored state limits") var limits: StateLimitArguments

    @Option(name: .customLong("webhook-allow"), help: "HOST:PORT a webhook whose URL the request chose may reach although it is this stubd (repeatable). Its admin API is never reachable.")
    var webhookAllowed: [String] = []

    @Option(name: .customLong("idle-timeout"), help: "Seconds before an idle or stalled connection is closed.")
    var idleTimeout: Double = 30

    @Option(name: .customLong("hang-cap"), help: "Seconds a 'hang' fault holds a connection before closing it.")
    var hangCap: Double = 75

    @Option(name: .customLong("shutdown-grace"), help: "Seconds SIGTERM or Ctrl-C lets answers in flight (delays, streams, forwarded calls) finish after accepting stops; WebSockets get close 1001 at once. 0 stops at once.")
    var shutdownGrace: Double = 5

    @Option(name: .customLong("replay-speed"), help: "How fast streams play: 1 as written or recorded, 2 twice as fast, 0.5 half as fast, max every event at once.")
    var replaySpeed: String = "1"

    /// `--replay-speed` as a factor (`max`: infinity).
    var replaySpeedFactor: Double? {
        if replaySpeed.lowercased() == "max" { return .infinity }
        guard let factor = Double(replaySpeed), factor > 0, factor.isFinite else { return nil }
        return factor
    }

    @Flag(name: [.customShort("w"), .long], help: "Reload the fixtures when their files change; a broken edit keeps the previous ones serving.")
    var watch = false

    @Option(name: .customLong("cors-origin"), help: "An origin allowed by CORS (repeatable; * allows any). Default: any origin when listening on loopback, none otherwise.")
    var corsOrigins: [String] = []

    @Flag(name: .customLong("no-cors"), help: "Send no CORS headers and answer no preflights.")
    var noCORS = false

    @Option(name: .customLong("journal-size"), help: "Requests kept in the journal (0 keeps none).")
    var journalSize: Int = 1000

    @Option(name: .customLong("journal-body-limit"), help: "Body bytes kept per journal entry.")
    var journalBodyLimit: Int = 4096

    @Option(name: .customLong("head-timeout"), help: "Seconds a connection has to send a whole request head (from opening or its last reply).")
    var headTimeout: Double = 10

    @Option(name: .customLong("max-connections"), help: "Open connections at most; accepting pauses at the cap (default: 3/4 of the open-file limit).")
    var maxConnections: Int?

    @Option(name: .customLong("allowed-host"), help: "A Host name the admin API also answers on a loopback bind (repeatable).")
    var allowedHosts: [String] = []

    @Option(name: .customLong("admin-cors-origin"), help: "A web origin allowed to call the admin API (repeatable). Default: none.")
    var adminCORSOrigins: [String] = []

    @Option(name: .customLong("admin-token"), help: "Bearer token the admin API requires; needed to use it on a non-loopback --host. Visible to every local user in the process list: prefer --admin-token-file or STUBD_ADMIN_TOKEN.")
    var adminToken: String?

    @Option(name: .customLong("admin-token-file"), help: "A file holding the admin token (its first line), kept out of the process list.")
    var adminTokenFile: String?

    @Flag(name: .customLong("sessions-only"), help: "One of several instances behind a load balancer that hashes on X-Stubd-Session: refuse admin writes without a session (they would change this instance only); fixtures stay the shared state.")
    var sessionsOnly = false

    @Flag(name: .customLong("journal-secrets"), help: "Keep Authorization, Cookie, tokens, keys and passwords in the journal and logs (default: hidden).")
    var journalSecrets = false

    @Flag(name: [.customShort("q"), .long], help: "Do not log one line per request.")
    var quiet = false

    @Option(name: .customLong("ui-write-dir"), help: "A folder the dashboard (/__stubd/ui) may write fixture files into (\"write as fixture file\"). Default: none, the dashboard writes nothing.")
    var uiWriteDir: String?

    @Option(name: .customLong("proxy-unmatched"), help: "Forward requests no stub matches to this upstream (http(s)://host[:port][/base-path]) and send back its answer.")
    var proxyUnmatched: String?

    @OptionGroup(title: "Upstream TLS (--proxy-unmatched, --proxy-unrouted record)") var upstreamTLS: UpstreamTLSArguments

    @Option(name: .customLong("record"), help: "With --proxy-unmatched (or --proxy-unrouted record): write what the upstream answers as fixtures into this folder (see stubd record).")
    var record: String?

    @OptionGroup(title: "Recording (with --record)") var recording: RecordingArguments

    /// How log lines are written on standard error.
    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .customLong("log-format"), help: "text (one readable line per request) or json (one JSON object per line, for CI logs).")
    var logFormat: LogFormat = .text

    func validate() throws {
        if listen.https.caDir != nil && listen.https.httpsPort == nil && proxy.port == nil {
            throw ValidationError("--ca-dir needs --https-port PORT or --proxy-port PORT")
        }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be positive, got \(idleTimeout)") }
        guard hangCap > 0 else { throw ValidationError("--hang-cap must be positive, got \(hangCap)") }
        guard shutdownGrace >= 0, shutdownGrace <= 3600 else { throw ValidationError("--shutdown-grace must be from 0 to 3600 seconds, got \(shutdownGrace)") }
        guard replaySpeedFactor != nil else {
            throw ValidationError("--replay-speed must be a number above 0 (2 plays streams twice as fast) or max (every event at once), got \(replaySpeed)")
        }
        guard headTimeout > 0 else { throw ValidationError("--head-timeout must be positive, got \(headTimeout)") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be 1 or more, got \(maxConnections)") }
        if adminToken?.isEmpty == true { throw ValidationError("--admin-token must not be empty") }
        if adminToken != nil && adminTokenFile != nil { throw ValidationError("--admin-token and --admin-token-file contradict each other; give one") }
        guard journalSize >= 0 else { throw ValidationError("--journal-size must be 0 or more, got \(journalSize)") }
        guard journalBodyLimit >= 0 else { throw ValidationError("--journal-body-limit must be 0 or more, got \(journalBodyLimit)") }
        if noCORS && !corsOrigins.isEmpty { throw ValidationError("--no-cors and --cors-origin contradict each other; give one") }
        if let proxyUnmatched { _ = try upstreamTLS.upstream(proxyUnmatched, flag: "--proxy-unmatched") }
        if let uiWriteDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: uiWriteDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--ui-write-dir \(uiWriteDir) is not a folder; create it first (mkdir -p \(uiWriteDir))")
            }
        }
        if record != nil && proxyUnmatched == nil && proxy.unrouted != .record {
            throw ValidationError("--record needs --proxy-unmatched URL (it records what that upstream answers) or --proxy-unrouted record")
        }
        if proxy.unrouted == .record && record == nil {
            throw ValidationError("--proxy-unrouted record needs --record DIR: the folder the answers of unrouted hosts are written into")
        }
    }

    /// The first line of `path`, for `--admin-token-file`.
    static func readToken(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--admin-token-file \(path) cannot be read; give a file holding the token")
        }
        let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else { throw ValidationError("--admin-token-file \(path) is empty; put the token on its first line") }
        return token
    }

    func run() throws {
        readiness.removeStale()
        let table = try fixtureArguments.loadTable()
        switch logFormat {
        case .text: LoggingSystem.bootstrap(StreamLogHandler.standardError)
        case .json: LoggingSystem.bootstrap { JSONLogHandler(label: $0) }
        }
        // One logger and one redactor for the whole server: request lines (text, or JSON
        // objects), engine events, recording and reload lines.
        let logger = Logger(label: "stubd")
        var cors = CORSPolicy.default(host: listen.host)
        if noCORS { cors = CORSPolicy(enabled: false) }
        if !corsOrigins.isEmpty { cors = CORSPolicy(enabled: true, allowedOrigins: corsOrigins) }
        var settings = StubdServer.Configuration()
        var httpsNotes = try listen.configure(&settings.engine)
        let proxied = try proxy.settings(caFolder: listen.https.caDir)
        settings.engine.proxy = proxied.settings
        settings.unroutedHosts = proxy.unrouted
        httpsNotes += proxied.notes
        settings.engine.idleTimeoutSeconds = idleTimeout
        settings.engine.hangCapSeconds = hangCap
        settings.replaySpeed = replaySpeedFactor ?? 1
        settings.engine.headTimeoutSeconds = headTimeout
        settings.engine.maxConnections = maxConnections
        let token = try adminToken ?? adminTokenFile.map(Self.readToken)
            ?? ProcessInfo.processInfo.environment["STUBD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        var access = AdminAccess(host: listen.host, token: token, allowedHosts: allowedHosts, corsOrigins: adminCORSOrigins)
        access.sessionsOnly = sessionsOnly
        settings.redactor = Redactor(enabled: !journalSecrets)
        switch logFormat {
        case .json:
            settings.engine.onEvent = { @Sendable message in logger.warning("\(message)") }
            settings.logger = nil
            if !quiet { settings.observers = [ExchangeLogLine(logger: logger, redactor: settings.redactor, structured: true)] }
        case .text:
            settings.engine.onEvent = { @Sendable message in printError("stubd: \(message)") }
            settings.logger = quiet ? nil : logger
        }
        settings.cors = cors
        settings.journalCapacity = journalSize
        settings.journalBodyLimit = journalBodyLimit
        settings.access = access
        settings.proxy = try proxyUnmatched.map { try upstreamTLS.upstream($0, flag: "--proxy-unmatched") }
        let recordedUpstream = settings.proxy?.description ?? (proxy.unrouted == .record ? "the hosts reached through the proxy" : nil)
        settings.recorder = try recordedUpstream.flatMap { upstream in
            try record.map { try recording.recorder(upstream: upstream, out: $0, flag: "--record", log: { logger.info("\($0)") }) }
        }
        settings.proxyResolve = proxy.resolveMap
        settings.upstreamTLS = upstreamTLS.tls
        limits.configure(&settings)
        settings.webhookAllowed = webhookAllowed
        settings.uiWriteDirectory = uiWriteDir.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let recorder = settings.recorder
        let termination = TerminationSignal()
        readiness.watchParent(termination)
        let server = try readiness.start(table: table, settings)
        // Watching from before the banner: an edit made as soon as it is read is seen.
        let watcher = watch ? FixtureWatcher(paths: fixtureArguments.paths, server: server, alsoServed: try fixtureArguments.targetFixtures(report: false),
                                             logger: logger) : nil
        printOut("stubd: serving \(table.routes.count) routes from \(fixtureArguments.sourceDescription) on \(server.baseURL)")
        ListenArguments.announce(server, notes: httpsNotes)
        if let proxyPort = server.proxyPort {
            let hosts = table.routes.compactMap(\.fixture.request.host)
            let routed = hosts.isEmpty ? "no route names a host yet (give routes a host, or targets their baseURL)"
                : "answers \(Set(hosts).sorted().joined(separator: ", ")) (HTTPS through the local CA)"
            let shown = proxy.host.contains(":") ? "[\(proxy.host)]" : proxy.host
            printOut("stubd: proxy on http://\(shown):\(proxyPort): \(routed); other hosts: \(proxy.unrouted.rawValue)"
                + (proxy.password == nil ? "" : "; clients give the password (http://SESSION:PASSWORD@…)"))
        }
        printOut("stubd: \(access.summary)")
        if access.mode != .disabled {
            let writes = settings.uiWriteDirectory.map { "; it writes fixture files into \($0)" } ?? ""
            printOut("stubd: dashboard: \(server.baseURL)\(StubdServer.dashboardPath)\(writes)")
        }
        if !cors.enabled && !noCORS {
            printOut("stubd: CORS is off because --host \(listen.host) is not loopback; allow browser pages with --cors-origin ORIGIN")
        }
        if let proxyUnmatched {
            printOut("stubd: requests no stub matches are forwarded to \(proxyUnmatched)" + (record.map { " and recorded into \($0)" } ?? "")
                     + "; web pages other than this machine's own may not use it unless --cors-origin names them")
        }
        for origin in adminCORSOrigins where origin == "*" || origin == "null" {
            printOut("stubd: warning: --admin-cors-origin \(origin) lets \(origin == "*" ? "every web page" : "sandboxed pages and local files (Origin: null)") change stubd and read its journal; name the page's origin instead")
        }
        if journalSecrets { printOut("stubd: --journal-secrets: the journal and logs keep Authorization, cookies, tokens and keys as sent") }
        let signal = termination.wait()
        watcher?.stop()
        // Not ready any more from the first moment: no new connections are taken.
        readiness.withdraw()
        if shutdownGrace > 0 { printOut("stubd: \(signal) received; no new connections, finishing answers in flight (at most \(JSONWriter.format(shutdownGrace)) s; a second signal stops at once)") }
        server.stop(grace: shutdownGrace)
        if let recorder { for line in recorder.finish().lines { printOut("stubd: \(line)") } }
        printOut("stubd: \(signal) received, stopped")
    }
}
