import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdTestTags
import StubdEngine

/// Collections per session on a stubd served in memory: sessions isolated and reset to the seed,
/// the admin API reading and replacing items, templates reading saved values and collections.
@Suite(.tags(.inMemory)) struct CollectionServingTests {
    static let todos = #"""
    {"collections": [{"name": "todos", "path": "/todos", "seed": [{"id": 1, "title": "milk", "done": false}]}]}
    """#

    /// `STATUS BODY` of a request in a session.
    static func call(_ stubd: InMemoryStubd, _ session: String, _ method: String, _ target: String, body: String = "",
                     headers: [(String, String)] = []) throws -> String {
        let reply = try #require(stubd.send(method, target, headers: [("X-Stubd-Session", session), ("Content-Type", "application/json")] + headers,
                                            body: body))
        return "\(reply.status ?? 0) \(reply.text)".trimmingCharacters(in: .whitespaces)
    }

    @Test func sessionsAreIsolatedAndResetToTheSeed() throws {
        let stubd = try InMemoryStubd(Self.todos)
        defer { stubd.stop() }
        func call(_ session: String, _ method: String, _ target: String, _ body: String = "") throws -> String {
            try Self.call(stubd, session, method, target, body: body)
        }
        #expect(try call("a", "POST", "/todos", #"{"title":"a's"}"#).hasPrefix("201 "))
        #expect(try call("b", "GET", "/todos") == #"200 [{"id":1,"title":"milk","done":false}]"#, "b sees the seed")
        #expect(try call("a", "GET", "/todos").contains("a's"))
        // The admin API reads and writes a session's items.
        let listed = try call("a", "GET", "/__stubd/collections")
        #expect(listed.hasPrefix("200 ") && listed.contains(#""name": "todos""#) && listed.contains(#""count": 2"#), "\(listed)")
        #expect(try call("b", "PUT", "/__stubd/collections/todos", #"[{"id":"x","title":"set by the test"}]"#).hasPrefix("200 "))
        #expect(try call("b", "GET", "/todos/x") == #"200 {"id":"x","title":"set by the test"}"#)
        #expect(try call("b", "POST", "/todos", #"{"title":"string ids"}"#).contains(#""id":""#), "string ids: a new UUID")
        #expect(try call("b", "GET", "/__stubd/collections/nope").hasPrefix("404 "))
        #expect(try call("b", "PUT", "/__stubd/collections/todos", #"[{"title":"no id"}]"#).hasPrefix("400 "))
        #expect(try call("a", "POST", "/__stubd/reset").hasPrefix("200 "))
        #expect(try call("a", "GET", "/todos") == #"200 [{"id":1,"title":"milk","done":false}]"#, "reset: back to the seed")
        #expect(try call("b", "GET", "/todos").contains("set by the test"), "another session's reset leaves b")
    }

    /// Templates read what earlier requests left: a value a route saved (`"save"`), and a
    /// collection's items — per session, reset with it.
    @Test func templatesReadSavedValuesAndCollections() throws {
        let stubd = try InMemoryStubd(Self.todos, #"""
            {"templates": true, "routes": [
              {"request": {"method": "POST", "path": "/login"}, "save": {"user": "{{jsonPath request.body '$.user'}}", "agent": "{{request.headers.X-Client}}"},
               "response": {"json": {"welcome": "{{jsonPath request.body '$.user'}}"}}},
              {"request": {"method": "GET", "path": "/me"}, "response": {"json": {"name": "{{saved.user}}", "client": "{{saved.agent}}"}}},
              {"request": {"method": "GET", "path": "/summary"}, "response": {"text": "{{collection.todos.count}} todos, first: {{jsonPath collection.todos '$[0].title'}}"}}
            ]}
            """#)
        defer { stubd.stop() }
        func call(_ session: String, _ method: String, _ target: String, _ body: String = "", headers: [(String, String)] = []) throws -> String {
            try Self.call(stubd, session, method, target, body: body, headers: headers)
        }
        #expect(try call("s1", "GET", "/me") == #"200 {"name":"","client":""}"#, "nothing saved yet")
        #expect(try call("s1", "POST", "/login", #"{"user":"ada"}"#, headers: [("X-Client", "ios")]) == #"200 {"welcome":"ada"}"#)
        #expect(try call("s1", "GET", "/me") == #"200 {"name":"ada","client":"ios"}"#)
        #expect(try call("s2", "GET", "/me") == #"200 {"name":"","client":""}"#, "another session saved nothing")
        #expect(try call("s1", "GET", "/summary") == "200 1 todos, first: milk")
        #expect(try call("s1", "POST", "/todos", #"{"title":"eggs"}"#).hasPrefix("201 "))
        #expect(try call("s1", "GET", "/summary") == "200 2 todos, first: milk")
        #expect(try call("s1", "POST", "/__stubd/reset").hasPrefix("200 "))
        #expect(try call("s1", "GET", "/me") == #"200 {"name":"","client":""}"#, "reset forgets saved values")
        #expect(try call("s1", "GET", "/summary") == "200 1 todos, first: milk")
    }
}
