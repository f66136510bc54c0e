import Testing
import StubModel
import StubdTestTags

/// Each provider's envelope for one answer: the order of events, text reassembled from the
/// tokens, tool-call arguments reassembled from their fragments, usage and the end markers.
@Suite(.tags(.inMemory)) struct LLMEnvelopeTests {
    private let answer = LLMAnswer(provider: .openaiChat, text: "Hello, wörld! 42 times.",
                                   toolCalls: [LLMAnswer.ToolCall(name: "get_weather", arguments: .object([("city", .string("Paris")), ("days", .number(3))]))])

    private func envelope(_ provider: LLMAnswer.Provider, usage: Bool = true, toolCalls: Bool = true) -> LLMEnvelope {
        var answer = self.answer
        answer.provider = provider
        if !toolCalls { answer.toolCalls = [] }
        return LLMEnvelope(answer: answer, text: answer.text, model: "m-1", created: 1_700_000_000, id: "abc", inputTokens: 12, includeUsage: usage)
    }

    private func json(_ event: StreamEvent) -> JSONValue? {
        if case .json(let value)? = event.data { return value }
        return nil
    }

    private func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    @Test func tokensJoinBackToTheText() {
        let tokens = LLMEnvelope.tokens("Hello, wörld!  42 times.\nNext")
        #expect(tokens.joined() == "Hello, wörld!  42 times.\nNext")
        #expect(tokens.prefix(4) == ["Hello", ",", " wörld", "!"])
        #expect(LLMEnvelope.fragments("{\"city\":\"Paris\"}").joined() == "{\"city\":\"Paris\"}")
        #expect(LLMEnvelope.fragments("ééééééééé", size: 4) == ["éééé", "éééé", "é"])
    }

    @Test func openAIChatChunksInOrder() throws {
        let events = envelope(.openaiChat).events
        #expect(events.last?.data == .text("[DONE]"))
        let chunks = events.dropLast().compactMap(json)
        #expect(chunks.count == events.count - 1)
        // Role first; usage last, with no choices.
        #expect(string(chunks[0]["choices"].flatMap { if case .array(let a) = $0 { a.first } else { nil } }?["delta"]?["role"]) == "assistant")
        let usage = try #require(chunks.last)
        #expect(usage["choices"] == .array([]) && usage["usage"]?["total_tokens"] == .number(12 + Double(envelope(.openaiChat).outputTokens)))
        var text = ""
        var arguments = ""
        var finish: String?
        for chunk in chunks.dropLast() {
            guard case .array(let choices)? = chunk["choices"], let delta = choices.first?["delta"] else { continue }
            text += string(delta["content"]) ?? ""
            if case .array(let calls)? = delta["tool_calls"] {
                #expect(calls.first?["index"] == .number(0))
                arguments += string(calls.first?["function"]?["arguments"]) ?? ""
            }
            if let reason = string(choices.first?["finish_reason"]) { finish = reason }
            #expect(chunk["usage"] == .null)
        }
        #expect(text == answer.text)
        #expect(try JSONParser.parse(arguments) == answer.toolCalls[0].arguments)
        #expect(finish == "tool_calls")
        // Without include_usage: no usage chunk and no usage member.
        let plain = envelope(.openaiChat, usage: false).events.dropLast().compactMap(json)
        #expect(plain.allSatisfy { $0["usage"] == nil })
    }

    @Test func anthropicEventsInOrder() throws {
        let events = envelope(.anthropic).events
        let types = events.map { $0.event ?? "" }
        #expect(types.first == "message_start" && types.last == "message_stop" && types.contains("ping"))
        #expect(types.filter { $0 == "content_block_start" }.count == 2 && types.filter { $0 == "content_block_stop" }.count == 2)
        var text = ""
        var partial = ""
        for event in events {
            let value = try #require(json(event))
            #expect(string(value["type"]) == event.event)
            if let delta = value["delta"] {
                text += string(delta["text"]) ?? ""
                partial += string(delta["partial_json"]) ?? ""
            }
        }
        #expect(text == answer.text)
        #expect(try JSONParser.parse(partial) == answer.toolCalls[0].arguments)
        #expect(json(events[events.count - 2])?["delta"]?["stop_reason"] == .string("tool_use"))
    }

    @Test func openAIResponsesEventsNumberedInOrder() throws {
        let events = envelope(.openaiResponses).events
        let types = events.map { $0.event ?? "" }
        #expect(types.first == "response.created" && types.last == "response.completed")
        for (index, event) in events.enumerated() {
            #expect(json(event)?["sequence_number"] == .number(Double(index)))
        }
        let text = events.filter { $0.event == "response.output_text.delta" }.compactMap { string(json($0)?["delta"]) }.joined()
        #expect(text == answer.text)
        let arguments = events.filter { $0.event == "response.function_call_arguments.delta" }.compactMap { string(json($0)?["delta"]) }.joined()
        #expect(try JSONParser.parse(arguments) == answer.toolCalls[0].arguments)
    }

    @Test func theNonStreamingJSONCarriesTheSameAnswer() throws {
        let chat = envelope(.openaiChat).json
        guard case .array(let choices)? = chat["choices"] else { Issue.record("no choices in \(chat)"); return }
        #expect(string(choices.first?["message"]?["content"]) == answer.text)
        #expect(choices.first?["finish_reason"] == .string("tool_calls"))
        let anthropic = envelope(.anthropic).json
        guard case .array(let content)? = anthropic["content"] else { Issue.record("no content in \(anthropic)"); return }
        #expect(content.count == 2 && content[1]["input"] == answer.toolCalls[0].arguments)
        let responses = envelope(.openaiResponses, toolCalls: false).json
        #expect(responses["status"] == .string("completed") && responses["usage"]?["input_tokens"] == .number(12))
    }

    @Test func theRequestDecidesWhetherItStreams() {
        var answer = LLMAnswer(provider: .anthropic)
        #expect(answer.streams(requestSays: true) && !answer.streams(requestSays: false) && !answer.streams(requestSays: nil))
        answer.streaming = .always
        #expect(answer.streams(requestSays: false))
        answer.streaming = .never
        #expect(!answer.streams(requestSays: true))
        answer.tokensPerSecond = 50
        answer.firstToken = 0.3
        #expect(answer.pacing == StreamPacing(first: 0.3, between: 0.02))
    }
}
