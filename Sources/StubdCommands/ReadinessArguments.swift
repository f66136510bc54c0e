import ArgumentParser
import Foundation
import StubdRuntime
import StubdSystem

/// `--ready-file` and `--pid-file`, for `serve` and `record`: what a script that starts stubd in
/// the background waits on (an Xcode scheme pre-action, `ci_pre_xcodebuild.sh`, a GitHub Actions
/// step), instead of sleeping or parsing the banner.
struct ReadinessArguments: ParsableArguments {
    @Option(name: .customLong("ready-file"), help: "Written once stubd listens: the base URL on the first line (HTTPS on the second when served; then 'proxy http://HOST:PORT' with --proxy-port). Removed at exit.")
    var readyFile: String?

    @Option(name: .customLong("pid-file"), help: "Written once stubd listens: its process id. Removed at exit.")
    var pidFile: String?

    @Option(name: .customLong("parent-pid"), help: "Stop when this process ends (a test process that started stubd for itself).")
    var parentPID: Int32?

    /// Makes `termination` end when the parent process does, if one is named.
    func watchParent(_ termination: TerminationSignal) {
        if let parentPID { termination.stop(whenProcessEnds: parentPID) }
    }

    /// Removes a ready file left by an earlier run, before anything else, so a waiter never takes
    /// an old file for this run's.
    func removeStale() {
        for path in [readyFile, pidFile].compactMap({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Writes the pid file, then the ready file (last: it is what waiters watch), each atomically.
    /// Starts a server with `settings`, or exits 1 saying why; then announces it (the readiness
    /// file is written before the banner: whoever has read the banner, or sees the file, can use
    /// stubd). A failed announcement stops the server again.
    func start(table: RouteTable, _ settings: StubdServer.Configuration) throws -> StubdServer {
        let server: StubdServer
        do {
            server = try StubdServer.start(table: table, settings)
        } catch {
            printError("stubd: error: \(error.description)")
            throw ExitCode(1)
        }
        do {
            try announce(server, proxyHost: settings.engine.proxy?.host, http2: settings.engine.http2)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// The ready file: the base URL, the HTTPS one when served, then `proxy http://HOST:PORT`
    /// when the forward proxy is (its port as bound, for `--proxy-port 0`), then `http2 on` or
    /// `http2 off` (`--http2`).
    func announce(_ server: StubdServer, proxyHost: String? = nil, http2: Bool = true) throws {
        if let pidFile { try write("\(ProcessInfo.processInfo.processIdentifier)\n", to: pidFile, flag: "--pid-file") }
        if let readyFile {
            var lines = [server.servesHTTP ? server.baseURL : nil, server.httpsBaseURL].compactMap { $0 }
            if let port = server.proxyPort, let host = proxyHost { lines.append("proxy http://\(host.contains(":") ? "[\(host)]" : host):\(port)") }
            lines.append("http2 \(http2 ? "on" : "off")")
            try write(lines.joined(separator: "\n") + "\n", to: readyFile, flag: "--ready-file")
        }
    }

    /// Removes both files at a clean stop.
    func withdraw() {
        removeStale()
    }

    private func write(_ text: String, to path: String, flag: String) throws {
        do {
            try System.writeFileDurably(Array(text.utf8), to: path)
        } catch {
            printError("stubd: error: \(flag) \(path) cannot be written (\(error)); give a path in a folder you can write to")
            throw ExitCode(1)
        }
    }
}
