import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdEngine
import StubdTestTags

/// Blocks and helpers (issue 36), on a whole stubd served in memory: loops over what a JSON path
/// selects, conditions with else-if chains, `#assign`, `#with`; stubd's dialect writes values as
/// they are and WireMock's escapes HTML unless in triple braces; a templated JSON key; a loop past
/// its bound is refused with a 500 naming the route; the request line's base URL. (The same
/// templates against real WireMock: Tests/wiremock/templating_test.py in `make test`.)
@Suite(.tags(.socket)) struct TemplateBlockTests {
    static let json = [("Content-Type", "application/json")]

    static func route(_ path: String, _ text: String, dialect: String = "true") -> String {
        let template = dialect == "true" ? "true" : "\"\(dialect)\""
        let body = String(data: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), encoding: .utf8)!.dropFirst().dropLast()
        return #"{"request": {"method": "POST", "path": "\#(path)"}, "response": {"template": \#(template), "text": \#(body)}}"#
    }

    @Test func loopsConditionsAssignAndWith() throws {
        let stubd = try InMemoryStubd(#"{"routes": ["# + [
            Self.route("/each", "{{#each (jsonPath request.body '$.items') as |item i|}}{{i}}={{item.name}}{{#unless @last}},{{/unless}}{{else}}none{{/each}}"),
            Self.route("/if", "{{#if (eq (jsonPath request.body '$.n') 1)}}one{{else if (gt (jsonPath request.body '$.n') 5)}}big{{else}}small{{/if}}"),
            Self.route("/assign", "{{#assign 'who'}}{{upper (jsonPath request.body '$.items[0].name')}}{{/assign}}hi {{who}}, {{size (jsonPath request.body '$.items')}} items"),
            Self.route("/with", "{{#with (jsonPath request.body '$.items[1]')}}{{name}} at {{../request.path}}{{else}}nobody{{/with}}"),
            Self.route("/math", "{{math (size (jsonPath request.body '$.items')) '*' 10}} {{replace (capitalize 'ada lovelace') ' ' '_'}} {{join (jsonPath request.body '$.items[*].name') '+'}}"),
        ].joined(separator: ",") + "]}")
        defer { stubd.stop() }
        let items = #"{"items": [{"name": "ada"}, {"name": "bob"}], "n": 7}"#
        func post(_ path: String, _ body: String) throws -> String { try #require(stubd.send("POST", path, headers: Self.json, body: body)).text }
        #expect(try post("/each", items) == "0=ada,1=bob")
        #expect(try post("/each", #"{"items": []}"#) == "none")
        #expect(try post("/if", #"{"n": 1}"#) == "one")
        #expect(try post("/if", #"{"n": 9}"#) == "big")
        #expect(try post("/if", #"{"n": 3}"#) == "small")
        #expect(try post("/assign", items) == "hi ADA, 2 items")
        #expect(try post("/with", items) == "bob at /with", "a field of the item, and ../ reaching the outer context")
        #expect(try post("/with", #"{"items": []}"#) == "nobody")
        #expect(try post("/math", items) == "20 Ada_Lovelace ada+bob")
    }

    @Test func escapingFollowsTheDialect() throws {
        let stubd = try InMemoryStubd(#"{"routes": ["# + [
            Self.route("/stubd", "{{jsonPath request.body '$.q'}}|{{{jsonPath request.body '$.q'}}}"),
            Self.route("/wiremock", "{{jsonPath request.body '$.q'}}|{{{jsonPath request.body '$.q'}}}", dialect: "wiremock"),
        ].joined(separator: ",") + "]}")
        defer { stubd.stop() }
        let body = #"{"q": "<a href='x'>&\"`="}"#
        #expect(try #require(stubd.send("POST", "/stubd", headers: Self.json, body: body)).text == #"<a href='x'>&"`=|<a href='x'>&"`="#)
        #expect(try #require(stubd.send("POST", "/wiremock", headers: Self.json, body: body)).text
                == "&lt;a href&#x3D;&#x27;x&#x27;&gt;&amp;&quot;&#x60;&#x3D;|<a href='x'>&\"`=")
    }

    @Test func aTemplatedKeyAndTheBaseURL() throws {
        let stubd = try InMemoryStubd(#"""
        {"routes": [{"request": {"method": "GET", "pathTemplate": "/k/{day}"},
          "response": {"template": true, "json": {"{{request.path.day}}": {"next": "{{request.baseUrl}}/k/2", "port": "{{request.requestLine.port}}"}}}}]}
        """#)
        defer { stubd.stop() }
        let reply = try #require(stubd.get("/k/1", headers: [("Host", "api.example.test:8443")]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: [String: String]], "\(reply.text)")
        #expect(object == ["1": ["next": "http://api.example.test:8443/k/2", "port": "8443"]])
        let standard = try #require(stubd.get("/k/x", headers: [("Host", "api.example.test")])).text
        #expect(standard.contains("http://api.example.test/k/2") && standard.contains("\"80\""), "\(standard)")
    }

    @Test func aLoopPastItsBoundIsRefusedNamingTheRoute() throws {
        let stubd = try InMemoryStubd(#"{"routes": [{"name": "nested", "request": {"method": "POST", "path": "/loop"}, "response": {"template": true, "text": "{{#each (jsonPath request.body '$.a')}}{{#each (jsonPath request.body '$.a')}}.{{/each}}{{/each}}"}}]}"#)
        defer { stubd.stop() }
        let small = "{\"a\": [" + Array(repeating: "1", count: 50).joined(separator: ",") + "]}"
        #expect(try #require(stubd.send("POST", "/loop", headers: Self.json, body: small)).text.count == 2500)
        let large = "{\"a\": [" + Array(repeating: "1", count: 200).joined(separator: ",") + "]}"
        let refused = try #require(stubd.send("POST", "/loop", headers: Self.json, body: large))
        #expect(refused.status == 500)
        #expect(refused.text.contains("route nested") && refused.text.contains("10000"), "\(refused.text)")
    }
}
