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
import StubdTestTags

/// A declared collection served as a small REST API over a real socket: create, read, update,
/// replace, delete and the 404/409/400 a real API gives. Sessions, the admin API and templates
/// reading collections: `CollectionServingTests`.
@Suite(.tags(.process)) struct CollectionEndToEndTests {
    static let fixtures = #"""
    {"collections": [{"name": "todos", "path": "/todos", "seed": [{"id": 1, "title": "milk", "done": false}]}],
     "routes": [{"request": {"method": "GET", "path": "/todos/99"}, "response": {"status": 418, "text": "a hand-written stub wins"}}]}
    """#

    static func server() throws -> TestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-col-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(fixtures.utf8).write(to: URL(fileURLWithPath: folder + "/todos.json"))
        return try TestServer(fixtures: try FixtureLoader.load(paths: [folder]))
    }

    /// `STATUS BODY` of a request in a session.
    static func call(_ server: TestServer, _ session: String, _ arguments: [String]) throws -> String {
        var arguments = arguments
        let path = arguments.removeLast()
        let result = try Curl.run(["-H", "X-Stubd-Session: \(session)", "-H", "Content-Type: application/json", "-w", "\n%{http_code}"] + arguments + [server.url(path)])
        let lines = result.stdout.components(separatedBy: "\n")
        return "\(lines.last!) \(lines.dropLast().joined(separator: "\n"))".trimmingCharacters(in: .whitespaces)
    }

    @Test func createReadUpdateReplaceDeleteAndTheErrorsOfARealAPI() throws {
        let server = try Self.server()
        defer { server.stop() }
        func call(_ arguments: [String]) throws -> String { try Self.call(server, "s1", arguments) }
        #expect(try call(["/todos"]) == #"200 [{"id":1,"title":"milk","done":false}]"#)
        #expect(try call(["--data", #"{"title":"eggs"}"#, "/todos"]) == #"201 {"id":2,"title":"eggs"}"#)
        let created = try Curl.run(["-i", "-H", "X-Stubd-Session: s1", "-H", "Content-Type: application/json", "--data", #"{"title":"tea"}"#, server.url("/todos")]).stdout
        #expect(created.contains("Location: /todos/3\r\n"), "\(created)")
        #expect(try call(["/todos/2"]) == #"200 {"id":2,"title":"eggs"}"#)
        #expect(try call(["-X", "PATCH", "--data", #"{"done":true,"id":7}"#, "/todos/2"]) == #"200 {"id":2,"title":"eggs","done":true}"#, "the id is not changed by a patch")
        #expect(try call(["-X", "PUT", "--data", #"{"title":"oat milk"}"#, "/todos/1"]) == #"200 {"id":1,"title":"oat milk"}"#)
        #expect(try call(["-X", "DELETE", "/todos/3"]) == "204")
        #expect(try call(["/todos/3"]) == #"404 {"error":"todos has no item with id 3"}"#)
        #expect(try call(["-X", "DELETE", "/todos/3"]).hasPrefix("404 "))
        #expect(try call(["-X", "PATCH", "--data", "{}", "/todos/3"]).hasPrefix("404 "))
        #expect(try call(["--data", #"{"id":1,"title":"again"}"#, "/todos"]) == #"409 {"error":"todos already has an item with id 1"}"#)
        #expect(try call(["--data", "not json", "/todos"]).hasPrefix("400 "))
        #expect(try call(["/todos"]) == #"200 [{"id":1,"title":"oat milk"},{"id":2,"title":"eggs","done":true}]"#)
        #expect(try call(["/todos/99"]) == "418 a hand-written stub wins", "routes declared by hand win over a collection's")
    }

    @Test func badDeclarationsAreNamed() throws {
        let cases: [(String, String)] = [
            (#"{"collections": [{"name": "t", "path": "/t/{id}"}]}"#, #"c.json: collections[0].path: "/t/{id}" must be a plain path"#),
            (#"{"collections": [{"name": "t", "path": "/t", "seed": [{"title": "no id"}]}]}"#, #"c.json: collections[0].seed[0]: expected an object with a string or integer "id""#),
            (#"{"collections": [{"name": "t", "path": "/t", "seed": [{"id": 1}, {"id": 1}]}]}"#, "c.json: collections[0].seed[1].id: id 1 is used twice"),
            (#"{"collections": [{"name": "t", "path": "/t"}, {"name": "t", "path": "/u"}]}"#, #"c.json: collections[1].name: "t" is declared twice"#),
        ]
        for (text, expected) in cases {
            do {
                _ = try FixtureReader(file: "c.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
                Issue.record("\(text) should be refused")
            } catch {
                #expect(error.errors.first?.description.hasPrefix(expected) == true, "\(error.errors.first?.description ?? "")")
            }
        }
    }
}
