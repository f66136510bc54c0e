import Testing
import FixtureFiles
import StubModel
import StubdTestTags

/// `"stream"` and `"llm"` in fixture files: what is read, what is refused (with the field and the
/// fix), and that the writer's output reads back equal.
@Suite(.tags(.inMemory)) struct StreamFixtureTests {
    static func read(_ routes: String) throws(FixtureErrors) -> [Fixture] {
        try FixtureReader(file: "s.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array("{\"routes\": [\(routes)]}".utf8))
    }

    static func problems(_ answer: String) -> String {
        do {
            _ = try read(#"{"request": {"method": "GET", "path": "/x"}, \#(answer)}"#)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func aStreamIsReadAndWrittenBackEqual() throws {
        let fixtures = try Self.read(#"""
            {"request": {"method": "GET", "path": "/feed"},
             "stream": {"status": 201, "headers": {"X-Feed": "1"}, "events": [
                 {"id": "1", "event": "tick", "data": {"n": 1}}, {"data": "two\nlines", "delay": 0.5}, {"comment": "ping"}, {"retry": 1000}],
               "pacing": {"first": 0.25, "between": 0.1, "jitter": 0.02}, "split": "utf8", "fault": {"kind": "stall", "after": 3, "seconds": 2}}},
            {"request": {"method": "GET", "path": "/lines"}, "stream": {"format": "ndjson", "events": [{"data": {"a": "{{request.query.q}}"}}], "template": true}},
            {"request": {"method": "POST", "path": "/v1/chat/completions"}, "responses": [
                {"status": 429, "headers": {"Retry-After": "1"}, "json": {"error": "slow down"}},
                {"llm": {"provider": "openai-chat", "text": "Hi {{jsonPath request.body '$.user'}}", "template": true,
                         "toolCalls": [{"name": "f", "arguments": {"x": [1, 2]}, "id": "call_1"}], "model": "m", "usage": {"input": 3, "output": 4},
                         "firstToken": 0.3, "tokensPerSecond": 40, "jitter": 0.01, "stream": "always", "split": "line", "fault": {"kind": "reset", "after": 5}}}]}
            """#)
        try #require(fixtures.count == 3)
        guard case .stream(let stream) = fixtures[0].outcome else { Issue.record("not a stream: \(fixtures[0].outcome)"); return }
        #expect(stream.status == 201 && stream.headers == [NameValue("X-Feed", "1")] && stream.format == .sse && stream.events.count == 4)
        #expect(stream.events[0] == StreamEvent(data: .json(.object([("n", .number(1))])), event: "tick", id: "1"))
        #expect(stream.events[1].data == .text("two\nlines") && stream.events[1].delay == 0.5)
        #expect(stream.pacing == StreamPacing(first: 0.25, between: 0.1, jitter: 0.02) && stream.split == .utf8)
        #expect(stream.fault == StreamFault(.stall, after: 3, seconds: 2))
        guard case .llm(let answer) = fixtures[2].outcomes[1] else { Issue.record("not an llm answer: \(fixtures[2].outcomes)"); return }
        #expect(answer.provider == .openaiChat && answer.template && answer.streaming == .always && answer.tokensPerSecond == 40)
        #expect(answer.toolCalls == [LLMAnswer.ToolCall(name: "f", arguments: .object([("x", .array([.number(1), .number(2)]))]), id: "call_1")])
        #expect(answer.inputTokens == 3 && answer.outputTokens == 4 && answer.fault == StreamFault(.reset, after: 5))
        let again = try FixtureReader(file: "s.json") { _ throws(FixtureReader.FixtureProblem) in [] }
            .read(Array(FixtureWriter.text(for: fixtures).utf8))
        #expect(again == fixtures, "written and read back: \(FixtureWriter.text(for: fixtures))")
    }

    @Test func badStreamsAreRefusedWithTheFieldAndTheFix() {
        #expect(Self.problems(#""stream": {"events": []}"#).contains("routes[0].stream.events: expected a non-empty array"))
        #expect(Self.problems(#""stream": {"events": [{}]}"#).contains("routes[0].stream.events[0]: an empty event"))
        #expect(Self.problems(#""stream": {"format": "xml", "events": [{"data": 1}]}"#).contains("unknown format \"xml\"; use one of sse, ndjson, chunked"))
        #expect(Self.problems(#""stream": {"format": "ndjson", "events": [{"event": "x", "data": 1}]}"#).contains("SSE fields"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "fault": {"kind": "boom", "after": 1}}"#).contains("unknown stream fault \"boom\""))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "fault": {"kind": "reset"}}"#).contains("stream.fault.after"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "fault": {"kind": "reset", "after": 1, "seconds": 2}}"#).contains("only a stall has seconds"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "split": "half"}"#).contains("unknown split \"half\""))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "headers": {"Content-Length": "3"}}"#).contains("stubd frames a stream itself"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "status": 204}"#).contains("stream.status"))
        #expect(Self.problems(#""stream": {"events": [{"data": "{{nope"}], "template": true}"#).contains("routes[0].stream.events[0].data: template column"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1, "delay": 700}]}"#).contains("seconds from 0 to 600"))
        #expect(Self.problems(#""stream": {"events": [{"data": 1}], "pacing": {"between": 1}}, "response": {}"#).contains("give only one of response, networkError"))
        #expect(Self.problems(#""llm": {"text": "x"}"#).contains("routes[0].llm.provider: missing; use one of openai-chat, openai-responses, anthropic"))
        #expect(Self.problems(#""llm": {"provider": "gemini"}"#).contains("unknown provider \"gemini\""))
        #expect(Self.problems(#""llm": {"provider": "anthropic", "toolCalls": [{"name": "f", "arguments": []}]}"#).contains("llm.toolCalls[0].arguments"))
        #expect(Self.problems(#""llm": {"provider": "anthropic", "tokensPerSecond": 0}"#).contains("llm.tokensPerSecond"))
        #expect(Self.problems(#""llm": {"provider": "anthropic", "stream": "sometimes"}"#).contains("use request"))
        #expect(Self.problems(#""llm": {"provider": "anthropic", "text": "{{", "template": true}"#).contains("routes[0].llm.text: template column"))
    }
}
