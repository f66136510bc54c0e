import ArgumentParser
import AdminContract
import Foundation
import StubServer
import StubdEngine
import StubModel

/// `stubd ready`: exit 0 when the stubd at `--url` serves its routes (`GET /__stubd/ready`
/// answers 200), 1 otherwise — the container image's `HEALTHCHECK`, which has no shell or curl to
/// ask with, and a CI step's wait (`--wait 30`) without a sleep loop.
struct ReadyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ready",
        abstract: "Exit 0 once the stubd at --url serves its routes (a health check for containers and scripts).",
        discussion: """
              $ stubd ready                                  # the container image's HEALTHCHECK
              $ stubd ready --url http://127.0.0.1:9000 --wait 30
            """
    )

    @Option(help: "The stubd to ask (its base URL).")
    var url = "http://127.0.0.1:8080"

    @Option(help: "Seconds one check may take.")
    var timeout: Double = 2

    @Option(help: "Seconds to keep asking (every 0.1 s) before giving up; 0 asks once.")
    var wait: Double = 0

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ValidationError("--url \(url) is not an http(s) URL; give the base URL stubd printed, e.g. http://127.0.0.1:8080")
        }
        guard timeout > 0 else { throw ValidationError("--timeout \(timeout) must be above 0 seconds") }
        guard wait >= 0 else { throw ValidationError("--wait \(wait) cannot be negative") }
    }

    func run() throws {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let server: ProxyUpstream
        do { server = try ProxyUpstream(url: base) } catch { throw ValidationError("--url: \(error)") }
        var request = UpstreamRequest(host: server.host, port: server.port, method: "GET",
                                      target: server.basePath + AdminContract.prefix + "/" + AdminContract.ready.spec.path,
                                      headers: [NameValue("Host", server.hostHeader)],
                                      body: [], timeoutSeconds: timeout)
        request.tls = server.tls
        let deadline = Date().addingTimeInterval(wait)
        var last = ""
        repeat {
            switch VerifyCommand.send(request) {
            case .success(let live) where live.status == 200:
                printOut("stubd: ready at \(base)")
                return
            case .success(let live):
                last = "answered \(live.status)"
            case .failure(let problem):
                last = problem.description
            }
            if Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        } while Date() < deadline
        printError("stubd: not ready at \(base): \(last)")
        throw ExitCode(1)
    }
}
