import ArgumentParser
import Foundation
import Logging
import StubdRuntime
import StubdSystem

/// `stubd record`: a reverse proxy in front of a real API that writes one fixture per distinct
/// request, secrets redacted, until SIGINT or SIGTERM, then prints what it wrote.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record fixtures from a real API: a proxy that writes what the upstream answers.",
        discussion: """
            Point the app (or curl) at stubd instead of the API; every answer goes back unchanged \
            and is written as a fixture under --out, with Authorization, cookies, tokens, keys and \
            passwords redacted. Ctrl-C prints a summary. Replay with: stubd serve OUT

              $ stubd record --upstream https://api.github.com --port 8080
              $ curl http://127.0.0.1:8080/users/octocat
            """
    )

    @Option(help: "The real API: http(s)://host[:port][/base-path]. Path and query of each request are kept.")
    var upstream: String

    @Option(help: "Folder the fixtures are written to (created if missing).")
    var out: String = "fixtures/recorded"

    @OptionGroup var listen: ListenArguments

    @OptionGroup var readiness: ReadinessArguments

    @OptionGroup var recording: RecordingArguments

    @OptionGroup var upstreamTLS: UpstreamTLSArguments

    @Flag(name: [.customShort("q"), .long], help: "Do not log one line per request.")
    var quiet = false

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out must name a folder") }
        if listen.https.caDir != nil && listen.https.httpsPort == nil { throw ValidationError("--ca-dir needs --https-port PORT") }
        _ = try upstreamTLS.upstream(upstream, flag: "--upstream")
    }

    func run() throws {
        readiness.removeStale()
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let logger = Logger(label: "stubd")
        let proxy = try upstreamTLS.upstream(upstream, flag: "--upstream")
        let recorder = try recording.recorder(upstream: proxy.description, out: out, flag: "--out", log: { line in logger.info("\(line)") })
        var settings = StubdServer.Configuration()
        let httpsNotes = try listen.configure(&settings.engine)
        settings.engine.onEvent = { @Sendable message in printError("stubd: \(message)") }
        settings.logger = quiet ? nil : logger
        settings.proxy = proxy
        settings.recorder = recorder
        settings.upstreamTLS = upstreamTLS.tls
        let termination = TerminationSignal()
        readiness.watchParent(termination)
        let server = try readiness.start(table: .empty, settings)
        printOut("stubd: recording \(proxy) into \(out) on \(server.baseURL)")
        ListenArguments.announce(server, notes: httpsNotes)
        printOut("stubd: redacting Authorization, Cookie, Set-Cookie, X-Api-Key and secret names (password, secret anywhere; token, key, session at the end)"
                 + (recording.keep.isEmpty ? "" : " (kept as sent: \(recording.keep.joined(separator: ", ")))"))
        let signal = termination.wait()
        server.stop()
        readiness.withdraw()
        for line in recorder.finish().lines { printOut("stubd: \(line)") }
        printOut("stubd: \(signal) received, stopped")
    }
}
