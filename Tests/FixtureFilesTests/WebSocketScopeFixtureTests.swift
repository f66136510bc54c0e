import Testing
import FixtureFiles
import StubModel
import StubdTestTags

/// A reply's `scope` and the `stop` step in fixture files: read, written back equal, and refused
/// where they mean nothing (with the field and the fix).
@Suite(.tags(.inMemory)) struct WebSocketScopeFixtureTests {
    static func read(_ websocket: String) throws(FixtureErrors) -> [Fixture] {
        let route = #"{"request": {"method": "GET", "path": "/graphql"}, "websocket": \#(websocket)}"#
        return try FixtureReader(file: "w.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(route)]}".utf8))
    }

    static func problems(_ websocket: String) -> String {
        do {
            _ = try read(websocket)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func aScopedReplyAndItsStopAreReadAndWrittenBackEqual() throws {
        let fixtures = try Self.read(#"""
            {"replies": [{"match": {"jsonPath": "$.type", "equalTo": "subscribe"}, "scope": "$.id", "then": [{"send": {"text": "x"}, "delay": 0.1}]},
                         {"match": {"jsonPath": "$.type", "equalTo": "complete"}, "scope": "$.id", "then": [{"stop": true}]}]}
            """#)
        guard case .websocket(let script)? = fixtures.first?.outcomes.first else { Issue.record("no websocket read"); return }
        #expect(script.replies.map { $0.scope?.text } == ["$.id", "$.id"])
        #expect(script.replies[1].steps == [WebSocketStep(.stop)])
        let again = try FixtureReader(file: "w.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(FixtureWriter.text(for: fixtures).utf8))
        #expect(again == fixtures, "written and read back: \(FixtureWriter.text(for: fixtures))")
    }

    @Test func aStopWithoutAScopeIsRefusedNamingTheFix() {
        #expect(Self.problems(#"{"replies": [{"match": "any", "then": [{"stop": true}]}]}"#)
            == #"w.json: routes[0].websocket.replies[0].then[0].stop: a stop ends the reply's scope: give the reply a "scope", e.g. "$.id""#)
        #expect(Self.problems(#"{"onOpen": [{"stop": true}]}"#)
            == "w.json: routes[0].websocket.onOpen[0].stop: a stop ends a reply's scope; onOpen has none (use close to end the conversation)")
        #expect(Self.problems(#"{"replies": [{"match": "any", "scope": "$.id", "then": [{"stop": false}]}]}"#)
            == "w.json: routes[0].websocket.replies[0].then[0].stop: expected true")
        #expect(Self.problems(#"{"replies": [{"match": "any", "scope": 3, "then": []}]}"#)
            == #"w.json: routes[0].websocket.replies[0].scope: expected a JSON path into the message, e.g. "$.id""#)
    }
}
