import Testing
import StubdTestSupport
import StubModel
import StubdTestTags
import StubdEngine

/// Every listing shows what a route really answers: a stream 200, a WebSocket 101, a collection's
/// own statuses — not the 500 placeholder those routes were once compiled with.
@Suite(.tags(.inMemory)) struct RouteListingTests {
    static let fixtures = #"""
        {"collections": [{"name": "todos", "path": "/todos"}],
         "routes": [
          {"request": {"method": "GET", "path": "/events"}, "stream": {"status": 200, "events": [{"data": "a"}]}},
          {"request": {"method": "POST", "path": "/v1/chat/completions"}, "llm": {"provider": "openai-chat", "text": "hi"}},
          {"request": {"method": "GET", "path": "/ws"}, "websocket": {"onOpen": [{"send": {"text": "hello"}}]}},
          {"request": {"method": "GET", "path": "/hello"}, "response": {"status": 202, "text": "{{request.path}}", "template": true}},
          {"request": {"method": "GET", "path": "/flaky"}, "responses": [{"fault": "reset"}, {"status": 503}, {"stream": {"events": [{"data": "x"}]}}]}
        ]}
        """#

    @Test func theAdminListingShowsEachKindsRealAnswer() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let listing = try JSONParser.parse(try #require(stubd.get("/__stubd/routes")).body)
        guard case .array(let routes)? = listing["routes"] else { Issue.record("no routes in \(listing)"); return }
        var answers: [String: String] = [:]
        for route in routes {
            let request = route["route"]?["request"]
            guard case .string(let method)? = request?["method"], case .string(let answer)? = route["answers"],
                  case .string(let path)? = request?["path"] ?? request?["pathTemplate"] else { continue }
            answers["\(method) \(path)"] = answer
        }
        #expect(answers["GET /events"] == "200 stream")
        #expect(answers["POST /v1/chat/completions"] == "200 stream")
        #expect(answers["GET /ws"] == "101 websocket")
        #expect(answers["GET /hello"] == "202")
        #expect(answers["GET /flaky"] == "fault:reset,503,200 stream")
        #expect(answers["GET /todos"] == "200 collection")
        #expect(answers["POST /todos"] == "201 collection")
        #expect(answers["DELETE /todos/{id}"] == "204 collection")
        #expect(!answers.values.contains { $0.contains("500") }, "\(answers)")
    }

    /// A scenario listing's `next` is the step the next hit gets, by the same label.
    @Test func theSequencesNextStepIsNamedByItsKind() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        func next() throws -> JSONValue? {
            let states = try JSONParser.parse(try #require(stubd.get("/__stubd/scenarios")).body)
            guard case .array(let sequences)? = states["sequences"] else { return nil }
            return sequences.first?["next"]
        }
        #expect(try next() == .string("fault:reset"))
        _ = stubd.get("/flaky")
        #expect(try next() == .string("503"))
        #expect(stubd.get("/flaky")?.status == 503)
        #expect(try next() == .string("200 stream"))
    }
}
