import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubServer
import StubdEngine
import StubdTestTags
import StubdRuntime

/// What stubd decides for a stream route, in memory: the script one request gets (events
/// rendered, pauses drawn from the session's seed, faults), a language-model answer streamed or
/// not as the request asks, and the journal's record.
@Suite(.tags(.inMemory)) struct StreamServingTests {
    static let fixtures = #"""
    {"routes": [
      {"name": "feed", "request": {"method": "GET", "path": "/feed", "anyOtherQuery": true},
       "stream": {"events": [{"data": {"q": "{{request.query.q}}"}}, {"event": "done", "data": "bye {{request.query.q}}"}],
                  "pacing": {"first": 0.5, "between": 0.25, "jitter": 0.1}, "template": true}},
      {"name": "cut", "request": {"method": "GET", "path": "/cut"},
       "stream": {"format": "ndjson", "events": [{"data": 1}, {"data": 2}, {"data": 3}], "pacing": {"between": 0.2}, "fault": {"kind": "reset", "after": 2}}},
      {"name": "chat", "request": {"method": "POST", "path": "/v1/chat/completions"},
       "llm": {"provider": "openai-chat", "text": "You said {{jsonPath request.body '$.messages[0].content'}}", "template": true,
               "firstToken": 0.2, "tokensPerSecond": 10}}
    ]}
    """#

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func aStreamIsRenderedForTheRequestAndPaced() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let reply = try #require(stubd.get("/feed?q=hé"))
        let script = try #require(reply.script)
        #expect(reply.status == 200 && reply.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(reply.header("Cache-Control") == "no-cache" && reply.header("Content-Length") == nil)
        #expect(reply.text == "data: {\"q\":\"hé\"}\n\nevent: done\ndata: bye hé\n\n", "\(reply.text)")
        #expect(script.steps.count == 2 && script.ending == .finish)
        #expect(abs(script.steps[0].after - 0.5) <= 0.1 && abs(script.steps[1].after - 0.25) <= 0.1, "\(script.steps.map(\.after))")
        // The journal keeps the events sent as the response body.
        let entry = try #require(stubd.server.requests().last)
        #expect(entry.response?.status == 200 && text(entry.response?.body() ?? []).contains("bye hé"))
    }

    @Test func aSeededSessionGetsTheSamePausesEveryRunAndAnotherSessionItsOwn() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        func pauses(_ session: String, seed: Int) throws -> [Double] {
            _ = stubd.send("PUT", "/__stubd/random", headers: [("X-Stubd-Session", session), ("Content-Type", "application/json")], body: "{\"seed\": \(seed)}")
            let reply = try #require(stubd.get("/feed?q=x", headers: [("X-Stubd-Session", session)]))
            return try #require(reply.script).steps.map(\.after)
        }
        let first = try pauses("a", seed: 7)
        let again = try pauses("a", seed: 7)
        let other = try pauses("b", seed: 8)
        #expect(first == again, "seed 7 twice: \(first) vs \(again)")
        #expect(first != other, "seeds 7 and 8 gave the same pauses \(first)")
    }

    @Test func aFaultEndsTheScript() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let reply = try #require(stubd.get("/cut"))
        let script = try #require(reply.script)
        #expect(reply.header("Content-Type") == "application/x-ndjson" && reply.text == "1\n2\n")
        #expect(script.ending == .reset && script.endingAfter == 0.2)
    }

    @Test func anLLMAnswerStreamsOnlyWhenTheRequestAsks() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let body = #"{"model": "gpt-test", "messages": [{"role": "user", "content": "ping"}]"#
        let whole = try #require(stubd.send("POST", "/v1/chat/completions", headers: [("Content-Type", "application/json")], body: body + "}"))
        #expect(whole.script == nil && whole.header("Content-Type") == "application/json")
        let json = try JSONParser.parse(whole.body)
        #expect(json["model"] == .string("gpt-test"), "\(whole.text)")
        guard case .array(let choices)? = json["choices"] else { Issue.record("no choices: \(whole.text)"); return }
        #expect(choices.first?["message"]?["content"] == .string("You said ping"))
        let streamed = try #require(stubd.send("POST", "/v1/chat/completions", headers: [("Content-Type", "application/json")],
                                               body: body + #", "stream": true}"#))
        let script = try #require(streamed.script)
        #expect(streamed.text.hasSuffix("data: [DONE]\n\n") && streamed.text.contains(#""content":" ping""#), "\(streamed.text)")
        #expect(script.steps.first?.after == 0.2 && script.steps.dropFirst().allSatisfy { abs($0.after - 0.1) < 1e-9 })
    }

    /// `--replay-speed`: every pause divided by the factor; `max` sends the events at once, a
    /// split's gap kept.
    @Test func theReplaySpeedScalesEveryPause() throws {
        let fixtures = #"{"routes": [{"request": {"method": "GET", "path": "/s"}, "stream": {"events": [{"data": "ab"}, {"data": "cd", "delay": 3}], "pacing": {"first": 1}, "split": "line"}}]}"#
        let double = try InMemoryStubd(fixtures, settings: { $0.replaySpeed = 2 })
        defer { double.stop() }
        #expect(try #require(double.get("/s")?.script).steps.map(\.after) == [0.5, StreamSplit.gap, 1.5, StreamSplit.gap])
        let atOnce = try InMemoryStubd(fixtures, settings: { $0.replaySpeed = .infinity })
        defer { atOnce.stop() }
        #expect(try #require(atOnce.get("/s")?.script).steps.map(\.after) == [0, StreamSplit.gap, 0, StreamSplit.gap])
    }
}
