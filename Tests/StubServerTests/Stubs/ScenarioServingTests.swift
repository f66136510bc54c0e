import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdEngine
import StubdTestTags

/// Scenario state machines on a stubd served in memory: states gate routes and move, the admin
/// API lists, resets and sets them, and a typo in a scenario or state is refused naming the known
/// ones.
@Suite(.tags(.inMemory)) struct ScenarioServingTests {
    @Test func scenarioStatesGateAndMoveStubs() throws {
        let stubd = try InMemoryStubd(#"""
            {"routes": [
              {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "empty"}, "scenario": "todo", "requiredState": "Started"},
              {"request": {"method": "POST", "path": "/todo"}, "response": {"status": 201}, "scenario": "todo", "newState": "Added"},
              {"request": {"method": "GET", "path": "/todo"}, "response": {"text": "one item"}, "scenario": "todo", "requiredState": "Added"}
            ]}
            """#)
        defer { stubd.stop() }
        func todo() throws -> String { try #require(stubd.get("/todo")).text }
        #expect(try todo() == "empty")
        #expect(try #require(stubd.send("POST", "/todo")).status == 201)
        #expect(try todo() == "one item")
        #expect(try JSONParser.parse(try #require(stubd.get("/__stubd/scenarios")).body)["scenarios"] == .object([("todo", .string("Added"))]))
        _ = stubd.send("POST", "/__stubd/scenarios/reset")
        #expect(try todo() == "empty")
        func put(_ scenario: String, _ state: String) throws -> InMemoryReply {
            try #require(stubd.send("PUT", "/__stubd/scenarios/\(scenario)", headers: [("Content-Type", "application/json")], body: #"{"state": "\#(state)"}"#))
        }
        #expect(try put("todo", "Added").status == 200)
        #expect(try todo() == "one item")
        // A typo in a scenario or state name is refused, and the state stays.
        let badState = try put("todo", "Addded")
        #expect(badState.status == 400 && badState.text.contains("its routes name the states Added, Started"), "\(badState.text)")
        let badScenario = try put("tood", "Added")
        #expect(badScenario.status == 404 && badScenario.text.contains("scenarios: todo"), "\(badScenario.text)")
        #expect(try todo() == "one item")
    }
}
