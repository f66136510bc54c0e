import Foundation
import Testing
import FixtureFiles
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

/// Sequences ("first call fails, second succeeds") and scenario state machines.
@Suite(.serialized) struct ScenarioEndToEndTests {
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
        #expect(try Curl.run([server.url("/flaky")]).status == 56)
        #expect(try Curl.run([server.url("/flaky")]).stdout == "ok")
        #expect(try Curl.run([server.url("/flaky")]).stdout == "ok")
        let cycle = try (0..<5).map { _ in try Curl.run([server.url("/cycle")]).stdout }
        #expect(cycle == ["a", "b", "a", "b", "a"])
    }

    @Test func scenarioStatesGateAndMoveStubs() throws {
        let fixtures = try Self.load(#"""
            {"routes": [
              {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "empty"}, "scenario": "todo", "requiredState": "Started"},
              {"request": {"method": "POST", "path": "/todo"}, "response": {"status": 201}, "scenario": "todo", "newState": "Added"},
              {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "one item"}, "scenario": "todo", "requiredState": "Added"}
            ]}
            """#)
        let server = try TestServer(fixtures: fixtures)
        defer { server.stop() }
        #expect(try Curl.run([server.url("/todo")]).stdout == "empty")
        #expect(try Curl.run(["-X", "POST", "-w", "%{http_code}", server.url("/todo")]).stdout == "201")
        #expect(try Curl.run([server.url("/todo")]).stdout == "one item")
        #expect(try JSONParser.parse(try Curl.run([server.url("/__stubd/scenarios")]).stdout)["scenarios"] == .object([("todo", .string("Added"))]))
        _ = try Curl.run(["-X", "POST", server.url("/__stubd/scenarios/reset")])
        #expect(try Curl.run([server.url("/todo")]).stdout == "empty")
        _ = try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"state": "Added"}"#, server.url("/__stubd/scenarios/todo")])
        #expect(try Curl.run([server.url("/todo")]).stdout == "one item")
        // A typo in a scenario or state name is refused, and the state stays.
        let put = { (scenario: String, state: String) in
            try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"state": "\#(state)"}"#, "-w", "\n%{http_code}",
                          server.url("/__stubd/scenarios/\(scenario)")]).stdout
        }
        let badState = try put("todo", "Addded")
        #expect(badState.hasSuffix("\n400"))
        #expect(badState.contains("its routes name the states Added, Started"))
        let badScenario = try put("tood", "Added")
        #expect(badScenario.hasSuffix("\n404"))
        #expect(badScenario.contains("scenarios: todo"))
        #expect(try Curl.run([server.url("/todo")]).stdout == "one item")
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
