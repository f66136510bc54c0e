import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdState
import StubdTestTags

/// Every per-session store is bounded in UTF-8 bytes, per value, per session and in total, over
/// real sockets (issue 30): past a bound the request gets a 507 naming the bound and its flag,
/// nothing kept is dropped to make room, and sessions that traffic alone created can never crowd
/// out, or erase, a session a test opened through the admin API.
@Suite(.tags(.process))
struct StateBoundsEndToEndTests {
    static let routes = #"""
    {"collections": [{"name": "todos", "path": "/todos"}],
     "routes": [{"name": "login", "request": {"method": "POST", "path": "/login"}, "response": {"status": 204},
                 "save": {"token": "{{request.body}}"}},
                {"name": "whoami", "request": {"method": "GET", "path": "/whoami"}, "response": {"text": "{{saved.token}}", "template": true}},
                {"name": "visits", "request": {"method": "GET", "path": "/visits"}, "response": {"text": "{{counter}}", "template": true}}]}
    """#

    static func server(_ limits: StateBudget.Limits) throws -> TestServer {
        let fixtures = try FixtureReader(file: "state.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(routes.utf8))
        return try TestServer(fixtures: fixtures, settings: { $0.stateLimits = limits })
    }

    /// `STATUS BODY` of a request in `session`.
    static func call(_ server: TestServer, _ session: String?, _ arguments: [String], body: [UInt8]? = nil) throws -> String {
        var arguments = arguments
        let path = arguments.removeLast()
        var extra: [String] = []
        var file: URL?
        if let body {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-body-\(UUID().uuidString)")
            try Data(body).write(to: url)
            file = url
            extra = ["--data-binary", "@" + url.path]
        }
        defer { if let file { try? FileManager.default.removeItem(at: file) } }
        let session = session.map { ["-H", "X-Stubd-Session: \($0)"] } ?? []
        let result = try Curl.run(session + ["-H", "Content-Type: application/json", "-w", "\n%{http_code}"] + extra + arguments + [server.url(path)])
        let lines = result.stdout.components(separatedBy: "\n")
        return "\(lines.last!) \(lines.dropLast().joined(separator: "\n"))"
    }

    @Test func aGraphemeHeavySavedValueIsRefusedAtItsByteBound() throws {
        let server = try Self.server(StateBudget.Limits(valueBytes: 64 << 10, sessionBytes: 1 << 20, totalBytes: 8 << 20))
        defer { server.stop() }
        // 4,000 characters, each `a` and 200 combining marks: 4,000 Characters, 1.6 MB of UTF-8.
        let heavy = String(repeating: "a" + String(repeating: "\u{0301}", count: 200), count: 4_000)
        #expect(heavy.count == 4_000)
        let refused = try Self.call(server, "s1", ["-X", "POST", "/login"], body: Array(heavy.utf8))
        #expect(refused.hasPrefix("507 "), "\(refused.prefix(200))")
        #expect(refused.contains("--store-value-limit") && refused.contains("64 KiB") && refused.contains("route login"), "\(refused.prefix(300))")
        #expect(server.server.admin.budget.used(session: "s1") == 0, "nothing kept")
        #expect(try Self.call(server, "s1", ["-X", "POST", "--data", "t0k3n", "/login"]).hasPrefix("204"))
        #expect(try Self.call(server, "s1", ["/whoami"]) == "200 t0k3n")
    }

    @Test func aSessionIsBoundedAsAWholeAndItsResetGivesTheBytesBack() throws {
        let server = try Self.server(StateBudget.Limits(valueBytes: 64 << 10, sessionBytes: 256 << 10, totalBytes: 8 << 20))
        defer { server.stop() }
        let item = #"{"text": "\#(String(repeating: "x", count: 60_000))"}"#
        var statuses: [String] = []
        for _ in 0..<6 { statuses.append(String(try Self.call(server, "s1", ["--data", item, "/todos"]).prefix(3))) }
        #expect(statuses == ["201", "201", "201", "201", "507", "507"], "\(statuses)")
        let refusal = try Self.call(server, "s1", ["--data", item, "/todos"])
        #expect(refusal.contains("--store-session-limit") && refusal.contains("256 KiB"), "\(refusal.prefix(300))")
        // What was kept is still there and listed whole.
        let listed = try Self.call(server, "s1", ["/todos"])
        #expect(listed.hasPrefix("200 [") && listed.components(separatedBy: "\"id\"").count - 1 == 4)
        #expect(server.server.admin.budget.used(session: "s1") > 240_000)
        #expect(try Self.call(server, "s1", ["-X", "POST", "/__stubd/reset"]).hasPrefix("200"))
        #expect(server.server.admin.budget.used(session: "s1") == 0)
        #expect(server.server.admin.budget.total == 0)
    }

    @Test func sessionsTrafficCreatedCannotEraseOrCrowdOutASessionATestOpened() throws {
        let server = try Self.server(StateBudget.Limits(valueBytes: 64 << 10, sessionBytes: 256 << 10, totalBytes: 1 << 20))
        defer { server.stop() }
        // The test opens its session through the admin API (as the kit does), then its app adds an item.
        #expect(try Self.call(server, "kit-session", ["-X", "PUT", "--data", #"[{"id": 1, "title": "mine"}]"#, "/__stubd/collections/todos"]).hasPrefix("200"))
        #expect(try Self.call(server, "kit-session", ["--data", #"{"title": "also mine"}"#, "/todos"]).hasPrefix("201"))
        // A stranger writes one item into each of 1,000 new sessions: some are refused at half the
        // total, none erases anything.
        let item = #"{"text": "\#(String(repeating: "y", count: 2_000))"}"#
        var refused = 0
        var lastRefusal = ""
        for index in 0..<1_000 {
            let answer = try Self.call(server, "stranger-\(index)", ["--data", item, "/todos"])
            if answer.hasPrefix("507") { refused += 1; lastRefusal = answer }
        }
        #expect(refused > 0, "half of 1 MiB holds fewer than 1,000 such items")
        #expect(lastRefusal.contains("sessions no test opened") && lastRefusal.contains("--store-limit"), "\(lastRefusal.prefix(300))")
        let budget = server.server.admin.budget
        #expect(budget.total - budget.used(session: "kit-session") <= (1 << 20) / 2)
        #expect(try Self.call(server, "kit-session", ["/todos"]) == #"200 [{"id":1,"title":"mine"},{"id":2,"title":"also mine"}]"#)
        // And the test's session can still grow into the other half.
        #expect(try Self.call(server, "kit-session", ["--data", item, "/todos"]).hasPrefix("201"))
    }

    @Test func countersAreChargedAndASessionIdCountsInEveryEntry() throws {
        let server = try Self.server(StateBudget.Limits(valueBytes: 1 << 10, sessionBytes: 4 << 10, totalBytes: 1 << 20))
        defer { server.stop() }
        #expect(try Self.call(server, "c1", ["/visits"]) == "200 1")
        #expect(server.server.admin.budget.used(session: "c1") > 0)
        // A 3,000-byte session id: one entry fits the 4 KiB session bound, a second does not.
        let long = String(repeating: "s", count: 3_000)
        #expect(try Self.call(server, long, ["/visits"]) == "200 1")
        let second = try Self.call(server, long, ["-X", "POST", "--data", "t", "/login"])
        #expect(second.hasPrefix("507") && second.contains("--store-session-limit"), "\(second.prefix(200))")
        #expect(try Self.call(server, long, ["/visits"]) == "200 2", "what was kept is kept")
    }
}
