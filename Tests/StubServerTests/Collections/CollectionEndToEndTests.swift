import Foundation
import Testing
import FixtureFiles
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

/// A declared collection served as a small REST API over a real socket: create, read, update,
/// replace, delete and the 404/409/400 a real API gives; sessions isolated and reset; the admin API.
@Suite struct CollectionEndToEndTests {
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

    @Test func sessionsAreIsolatedAndResetToTheSeed() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect(try Self.call(server, "a", ["--data", #"{"title":"a's"}"#, "/todos"]).hasPrefix("201 "))
        #expect(try Self.call(server, "b", ["/todos"]) == #"200 [{"id":1,"title":"milk","done":false}]"#, "b sees the seed")
        #expect(try Self.call(server, "a", ["/todos"]).contains("a's"))
        // The admin API reads and writes a session's items.
        let listed = try Self.call(server, "a", ["/__stubd/collections"])
        #expect(listed.hasPrefix("200 ") && listed.contains(#""name": "todos""#) && listed.contains(#""count": 2"#), "\(listed)")
        #expect(try Self.call(server, "b", ["-X", "PUT", "--data", #"[{"id":"x","title":"set by the test"}]"#, "/__stubd/collections/todos"]).hasPrefix("200 "))
        #expect(try Self.call(server, "b", ["/todos/x"]) == #"200 {"id":"x","title":"set by the test"}"#)
        #expect(try Self.call(server, "b", ["--data", #"{"title":"string ids"}"#, "/todos"]).contains(#""id":""#), "string ids: a new UUID")
        #expect(try Self.call(server, "b", ["/__stubd/collections/nope"]).hasPrefix("404 "))
        #expect(try Self.call(server, "b", ["-X", "PUT", "--data", #"[{"title":"no id"}]"#, "/__stubd/collections/todos"]).hasPrefix("400 "))
        #expect(try Self.call(server, "a", ["-X", "POST", "/__stubd/reset"]).hasPrefix("200 "))
        #expect(try Self.call(server, "a", ["/todos"]) == #"200 [{"id":1,"title":"milk","done":false}]"#, "reset: back to the seed")
        #expect(try Self.call(server, "b", ["/todos"]).contains("set by the test"), "another session's reset leaves b")
    }

    /// Templates read what earlier requests left: a value a route saved (`"save"`), and a
    /// collection's items — per session, reset with it.
    @Test func templatesReadSavedValuesAndCollections() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-col-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.fixtures.utf8).write(to: URL(fileURLWithPath: folder + "/todos.json"))
        try Data(#"""
            {"templates": true, "routes": [
              {"request": {"method": "POST", "path": "/login"}, "save": {"user": "{{jsonPath request.body '$.user'}}", "agent": "{{request.headers.X-Client}}"},
               "response": {"json": {"welcome": "{{jsonPath request.body '$.user'}}"}}},
              {"request": {"method": "GET", "path": "/me"}, "response": {"json": {"name": "{{saved.user}}", "client": "{{saved.agent}}"}}},
              {"request": {"method": "GET", "path": "/summary"}, "response": {"text": "{{collection.todos.count}} todos, first: {{jsonPath collection.todos '$[0].title'}}"}}
            ]}
            """#.utf8).write(to: URL(fileURLWithPath: folder + "/app.json"))
        let server = try TestServer(fixtures: try FixtureLoader.load(paths: [folder]))
        defer { server.stop() }
        #expect(try Self.call(server, "s1", ["/me"]) == #"200 {"name":"","client":""}"#, "nothing saved yet")
        #expect(try Self.call(server, "s1", ["-H", "X-Client: ios", "--data", #"{"user":"ada"}"#, "/login"]) == #"200 {"welcome":"ada"}"#)
        #expect(try Self.call(server, "s1", ["/me"]) == #"200 {"name":"ada","client":"ios"}"#)
        #expect(try Self.call(server, "s2", ["/me"]) == #"200 {"name":"","client":""}"#, "another session saved nothing")
        #expect(try Self.call(server, "s1", ["/summary"]) == "200 1 todos, first: milk")
        #expect(try Self.call(server, "s1", ["--data", #"{"title":"eggs"}"#, "/todos"]).hasPrefix("201 "))
        #expect(try Self.call(server, "s1", ["/summary"]) == "200 2 todos, first: milk")
        #expect(try Self.call(server, "s1", ["-X", "POST", "/__stubd/reset"]).hasPrefix("200 "))
        #expect(try Self.call(server, "s1", ["/me"]) == #"200 {"name":"","client":""}"#, "reset forgets saved values")
        #expect(try Self.call(server, "s1", ["/summary"]) == "200 1 todos, first: milk")
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
