import Foundation
import StubdTesting
import Testing
import StubdTestSupport
import TargetModel
import TargetServing
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The in-process API a test uses: two servers at once, targets added at runtime, the journal.
@Suite(.serialized, .tags(.process)) struct EmbeddingTests {
    @Test func twoServersInOneProcessKeepTheirOwnStubsAndJournals() async throws {
        let first = try StubdServer.start(table: try RouteTable(targets: GitHubAPI.all), port: 0, logger: nil)
        let second = try StubdServer.start(table: .empty, port: 0, logger: nil)
        defer { first.stop(); second.stop() }
        try second.add(targets: [GitHubAPI.zen])
        try first.add([route("/zen", name: "override", outcome: ok("first only"))])
        #expect(await HTTPFetch.get(first.baseURL + "/zen").text == "first only")
        #expect(await HTTPFetch.get(second.baseURL + "/zen").text == "Design for failure.")
        #expect(await HTTPFetch.get(second.baseURL + "/users/octocat").status == 404)
        #expect(first.count(JournalQuery(path: "/zen")) == 1)
        #expect(second.count() == 2)
        #expect(second.requests(JournalQuery(matched: false)).first?.path == "/users/octocat")
        first.reset()
        #expect(await HTTPFetch.get(first.baseURL + "/zen").text == "Design for failure.")
    }

    /// Embedded without a logger argument, stubd logs each request as the CLI does, on standard
    /// error (captured here for the few milliseconds of one request).
    @Test func anEmbeddedServerLogsLikeTheCLIByDefault() throws {
        // The probe hears of the exchange after the log line is written (observers come after it).
        let probe = ArrivalProbe()
        var configuration = EngineConfiguration()
        configuration.port = 0
        let server = try StubdServer.start(table: try RouteTable(targets: [GitHubAPI.zen]), configuration: configuration, observers: [probe])
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-stderr-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let capture = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let saved = dup(2)
        dup2(capture, 2)
        let fetched = try Curl.run(["-w", " %{http_code}", server.baseURL + "/zen"])
        let ended = probe.waitForEnd(of: "/zen")
        dup2(saved, 2)
        close(saved)
        close(capture)
        #expect(ended)
        #expect(fetched.stdout.hasSuffix(" 200"))
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("GET /zen 200 zen "))
    }

    @Test func theAdminClientDrivesAServerAsIfOutOfProcess() async throws {
        let server = try StubdServer.start(table: .empty, port: 0, logger: nil)
        defer { server.stop() }
        let admin = StubdAdminClient(baseURL: URL(string: server.baseURL)!)
        let ids = try await admin.add(targets: [GitHubAPI.rateLimit])
        #expect(ids == ["r1"])
        #expect(await HTTPFetch.get(server.baseURL + "/rate_limit").status == 403)
        #expect(try await admin.count(RequestFilter(route: "rateLimit")) == 1)
        var loggedIn = route("/me", name: "me", outcome: ok("me"))
        loggedIn.scenario = ScenarioStep(name: "login", requiredState: "LoggedIn")
        try await admin.add([loggedIn])
        try await admin.setScenario("login", state: "LoggedIn")
        #expect(server.scenarioState("login") == "LoggedIn")
        await #expect(throws: StubdAdminError.self) { try await admin.setScenario("login", state: "LoggedOut") }
        do {
            try await admin.remove(id: "r42")
            Issue.record("removing an unknown id succeeded")
        } catch let error as StubdAdminError {
            #expect(error.status == 404)
        }
        try await admin.remove(id: "r1")
        #expect(await HTTPFetch.get(server.baseURL + "/rate_limit").status == 404)
        #expect(await HTTPFetch.get(server.baseURL + "/me").text == "me")
    }
}
