import Foundation
import Testing
import StubdTestSupport
import FixtureFiles
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// Sequences ("first call fails, second succeeds", a reset on the wire) and scenario steps taken
/// once under concurrent clients; scenario states through the admin API: `ScenarioServingTests`.
@Suite(.serialized, .tags(.process)) struct ScenarioEndToEndTests {
    static func load(_ json: String) throws -> [Fixture] {
        try FixtureReader(file: "test") { path throws(FixtureReader.FixtureProblem) in throw .init(path) }.read(Array(json.utf8))
    }

    @Test func aSequenceServesInOrderThenRepeatsTheLastOrCycles() throws {
        let fixtures = try Self.load(#"""
            {"routes": [
              {"request": {"method": "GET", "path": "/flaky"}, "responses": [{"status": 500, "text": "boom"}, {"fault": "reset"}, {"text": "ok"}]},
              {"request": {"method": "GET", "path": "/cycle"}, "responses": [{"text": "a"}, {"text": "b"}], "afterLast": "cycle"}
            ]}
            """#)
        let server = try TestServer(fixtures: fixtures)
        defer { server.stop() }
        #expect(try Curl.run(["-w", " %{http_code}", server.url("/flaky")]).stdout == "boom 500")
        // A fault step goes as a 502 head with two lengths, then the close: curl exits 18.
        #expect(try Curl.run([server.url("/flaky")]).status == 18)
        #expect(try Curl.run([server.url("/flaky")]).stdout == "ok")
        #expect(try Curl.run([server.url("/flaky")]).stdout == "ok")
        let cycle = try (0..<5).map { _ in try Curl.run([server.url("/cycle")]).stdout }
        #expect(cycle == ["a", "b", "a", "b", "a"])
    }

    @Test func concurrentRequestsTakeAScenarioStepExactlyOnce() throws {
        let fixtures = try Self.load(#"""
            {"routes": [
              {"request": {"method": "GET", "path": "/ticket"}, "response": {"text": "winner"}, "scenario": "draw", "requiredState": "Started", "newState": "Drawn"},
              {"request": {"method": "GET", "path": "/ticket"}, "response": {"text": "late"}, "scenario": "draw", "requiredState": "Drawn"},
              {"request": {"method": "GET", "path": "/count"}, "responses": [{"text": "first"}, {"text": "later"}]}
            ]}
            """#)
        let server = try TestServer(fixtures: fixtures) { $0.workers = 2 }
        defer { server.stop() }
        let tickets = RawHTTP.concurrentBodies(count: 300, port: server.port, request: "GET /ticket HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(tickets.filter { $0 == "winner" }.count == 1)
        #expect(tickets.filter { $0 == "late" }.count == 299)
        let counts = RawHTTP.concurrentBodies(count: 300, port: server.port, request: "GET /count HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(counts.filter { $0 == "first" }.count == 1)
        #expect(counts.filter { $0 == "later" }.count == 299)
    }
}
