/// Writes an `LLMAnswer` for one request in its provider's envelope: the events of the stream, or
/// the JSON of the whole response. Pure: the server supplies the rendered text, the model, the
/// time and the id.
public struct LLMEnvelope: Sendable {
    /// The answer.
    public let answer: LLMAnswer
    /// Its text, rendered for this request.
    public let text: String
    /// The model to name.
    public let model: String
    /// Unix seconds (`created`, `created_at`).
    public let created: Int
    /// This answer's unique part of its ids (`chatcmpl-…`, `msg_…`, `resp_…`).
    public let id: String
    /// Input tokens to report.
    public let inputTokens: Int
    /// For OpenAI Chat: whether the request asked for the usage chunk
    /// (`stream_options.include_usage`).
    public let includeUsage: Bool

    /// An envelope for one request.
    public init(answer: LLMAnswer, text: String, model: String, created: Int, id: String, inputTokens: Int, includeUsage: Bool) {
        self.answer = answer
        self.text = text
        self.model = model
        self.created = created
        self.id = id
        self.inputTokens = inputTokens
        self.includeUsage = includeUsage
    }

    /// The text as tokens: runs of letters or digits with the spaces before them, and each other
    /// character alone (`"Hello, world"` → `Hello`, `,`, ` world`).
    public static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var currentIsWord = false
        for character in text {
            let isWord = character.isLetter || character.isNumber
            if character.isWhitespace {
                if !current.isEmpty && !(current.allSatisfy(\.isWhitespace)) { tokens.append(current); current = "" }
                current.append(character)
                currentIsWord = false
            } else if isWord {
                if !current.isEmpty && !currentIsWord && !current.allSatisfy(\.isWhitespace) { tokens.append(current); current = "" }
                current.append(character)
                currentIsWord = true
            } else {
                if !current.isEmpty && !current.allSatisfy(\.isWhitespace) { tokens.append(current); current = "" }
                current.append(character)
                tokens.append(current)
                current = ""
                currentIsWord = false
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// A tool call's arguments as the fragments they are streamed in: at most `size` characters each.
    public static func fragments(_ text: String, size: Int = 8) -> [String] {
        var out: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if current.count == size {
                out.append(current)
                current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    private var textTokens: [String] { Self.tokens(text) }

    private func argumentsText(_ call: LLMAnswer.ToolCall) -> String { JSONWriter.write(call.arguments, pretty: false) }

    private func callID(_ index: Int, _ prefix: String) -> String {
        answer.toolCalls[index].id ?? "\(prefix)\(id)_\(index)"
    }

    /// Output tokens to report: as declared, else tokens and fragments sent.
    public var outputTokens: Int {
        answer.outputTokens ?? max(1, textTokens.count + answer.toolCalls.reduce(0) { $0 + Self.fragments(argumentsText($1)).count })
    }

    // MARK: Streams

    /// The events of the streamed answer.
    public var events: [StreamEvent] {
        switch answer.provider {
        case .openaiChat: return chatEvents
        case .openaiResponses: return responsesEvents
        case .anthropic: return anthropicEvents
        }
    }

    /// The JSON of the answer when it does not stream.
    public var json: JSONValue {
        switch answer.provider {
        case .openaiChat: return chatJSON
        case .openaiResponses: return responsesObject(status: "completed", output: responsesOutput(done: true), usage: true)
        case .anthropic: return anthropicJSON
        }
    }

    // MARK: OpenAI Chat Completions

    private func chatChunk(_ delta: JSONValue, finish: String? = nil) -> StreamEvent {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string("chatcmpl-\(id)")), ("object", .string("chat.completion.chunk")), ("created", .number(Double(created))),
            ("model", .string(model)), ("system_fingerprint", .null),
            ("choices", .array([.object([("index", .number(0)), ("delta", delta), ("logprobs", .null),
                                         ("finish_reason", finish.map { .string($0) } ?? .null)])])),
        ]
        if includeUsage { members.append(("usage", .null)) }
        return .json(.object(members))
    }

    private var usageJSON: JSONValue {
        .object([("prompt_tokens", .number(Double(inputTokens))), ("completion_tokens", .number(Double(outputTokens))),
                 ("total_tokens", .number(Double(inputTokens + outputTokens)))])
    }

    private var chatEvents: [StreamEvent] {
        var events: [StreamEvent] = []
        let hasText = !text.isEmpty || answer.toolCalls.isEmpty
        events.append(chatChunk(.object([("role", .string("assistant")), ("content", hasText ? .string("") : .null), ("refusal", .null)])))
        if hasText {
            for token in textTokens { events.append(chatChunk(.object([("content", .string(token))]))) }
        }
        for (index, call) in answer.toolCalls.enumerated() {
            events.append(chatChunk(.object([("tool_calls", .array([.object([
                ("index", .number(Double(index))), ("id", .string(callID(index, "call_"))), ("type", .string("function")),
                ("function", .object([("name", .string(call.name)), ("arguments", .string(""))])),
            ])]))])))
            for fragment in Self.fragments(argumentsText(call)) {
                events.append(chatChunk(.object([("tool_calls", .array([.object([
                    ("index", .number(Double(index))), ("function", .object([("arguments", .string(fragment))])),
                ])]))])))
            }
        }
        events.append(chatChunk(.object([]), finish: answer.toolCalls.isEmpty ? "stop" : "tool_calls"))
        if includeUsage {
            events.append(.json(.object([
                ("id", .string("chatcmpl-\(id)")), ("object", .string("chat.completion.chunk")), ("created", .number(Double(created))),
                ("model", .string(model)), ("system_fingerprint", .null), ("choices", .array([])), ("usage", usageJSON),
            ])))
        }
        events.append(StreamEvent(data: .text("[DONE]")))
        return events
    }

    private var chatJSON: JSONValue {
        var message: [(key: String, value: JSONValue)] = [("role", .string("assistant")),
                                                          ("content", !text.isEmpty || answer.toolCalls.isEmpty ? .string(text) : .null)]
        if !answer.toolCalls.isEmpty {
            message.append(("tool_calls", .array(answer.toolCalls.enumerated().map { index, call in
                .object([("id", .string(callID(index, "call_"))), ("type", .string("function")),
                         ("function", .object([("name", .string(call.name)), ("arguments", .string(argumentsText(call)))]))])
            })))
        }
        message.append(("refusal", .null))
        return .object([
            ("id", .string("chatcmpl-\(id)")), ("object", .string("chat.completion")), ("created", .number(Double(created))),
            ("model", .string(model)),
            ("choices", .array([.object([("index", .number(0)), ("message", .object(message)), ("logprobs", .null),
                                         ("finish_reason", .string(answer.toolCalls.isEmpty ? "stop" : "tool_calls"))])])),
            ("usage", usageJSON), ("system_fingerprint", .null),
        ])
    }

    // MARK: OpenAI Responses

    private var messageItemID: String { "msg_\(id)" }

    private func functionItemID(_ index: Int) -> String { "fc_\(id)_\(index)" }

    private var hasMessage: Bool { !text.isEmpty || answer.toolCalls.isEmpty }

    private func textPart(_ text: String) -> JSONValue {
        .object([("type", .string("output_text")), ("text", .string(text)), ("annotations", .array([]))])
    }

    private func messageItem(done: Bool) -> JSONValue {
        .object([("id", .string(messageItemID)), ("type", .string("message")), ("status", .string(done ? "completed" : "in_progress")),
                 ("role", .string("assistant")), ("content", .array(done ? [textPart(text)] : []))])
    }

    private func functionItem(_ index: Int, done: Bool) -> JSONValue {
        let call = answer.toolCalls[index]
        return .object([("id", .string(functionItemID(index))), ("type", .string("function_call")),
                        ("status", .string(done ? "completed" : "in_progress")), ("arguments", .string(done ? argumentsText(call) : "")),
                        ("call_id", .string(callID(index, "call_"))), ("name", .string(call.name))])
    }

    private func responsesOutput(done: Bool) -> [JSONValue] {
        (hasMessage ? [messageItem(done: done)] : []) + answer.toolCalls.indices.map { functionItem($0, done: done) }
    }

    private func responsesObject(status: String, output: [JSONValue], usage: Bool) -> JSONValue {
        .object([
            ("id", .string("resp_\(id)")), ("object", .string("response")), ("created_at", .number(Double(created))),
            ("status", .string(status)), ("error", .null), ("incomplete_details", .null), ("instructions", .null),
            ("max_output_tokens", .null), ("model", .string(model)), ("output", .array(output)), ("parallel_tool_calls", .bool(true)),
            ("previous_response_id", .null), ("temperature", .number(1)), ("text", .object([("format", .object([("type", .string("text"))]))])),
            ("tool_choice", .string("auto")), ("tools", .array([])), ("top_p", .number(1)), ("truncation", .string("disabled")),
            ("usage", usage ? .object([
                ("input_tokens", .number(Double(inputTokens))),
                ("input_tokens_details", .object([("cached_tokens", .number(0))])),
                ("output_tokens", .number(Double(outputTokens))),
                ("output_tokens_details", .object([("reasoning_tokens", .number(0))])),
                ("total_tokens", .number(Double(inputTokens + outputTokens))),
            ]) : .null),
            ("metadata", .object([])),
        ])
    }

    private var responsesEvents: [StreamEvent] {
        var events: [StreamEvent] = []
        func add(_ type: String, _ members: [(key: String, value: JSONValue)]) {
            events.append(.json(.object([("type", .string(type))] + members + [("sequence_number", .number(Double(events.count)))]), event: type))
        }
        add("response.created", [("response", responsesObject(status: "in_progress", output: [], usage: false))])
        add("response.in_progress", [("response", responsesObject(status: "in_progress", output: [], usage: false))])
        var outputIndex = 0
        if hasMessage {
            let item: [(key: String, value: JSONValue)] = [("item_id", .string(messageItemID)), ("output_index", .number(0))]
            add("response.output_item.added", [("output_index", .number(0)), ("item", messageItem(done: false))])
            add("response.content_part.added", item + [("content_index", .number(0)), ("part", textPart(""))])
            for token in textTokens {
                add("response.output_text.delta", item + [("content_index", .number(0)), ("delta", .string(token)), ("logprobs", .array([]))])
            }
            add("response.output_text.done", item + [("content_index", .number(0)), ("text", .string(text)), ("logprobs", .array([]))])
            add("response.content_part.done", item + [("content_index", .number(0)), ("part", textPart(text))])
            add("response.output_item.done", [("output_index", .number(0)), ("item", messageItem(done: true))])
            outputIndex = 1
        }
        for (index, call) in answer.toolCalls.enumerated() {
            let position = JSONValue.number(Double(outputIndex + index))
            let item: [(key: String, value: JSONValue)] = [("item_id", .string(functionItemID(index))), ("output_index", position)]
            add("response.output_item.added", [("output_index", position), ("item", functionItem(index, done: false))])
            for fragment in Self.fragments(argumentsText(call)) {
                add("response.function_call_arguments.delta", item + [("delta", .string(fragment))])
            }
            add("response.function_call_arguments.done", item + [("arguments", .string(argumentsText(call)))])
            add("response.output_item.done", [("output_index", position), ("item", functionItem(index, done: true))])
        }
        add("response.completed", [("response", responsesObject(status: "completed", output: responsesOutput(done: true), usage: true))])
        return events
    }

    // MARK: Anthropic Messages

    private var stopReason: String { answer.toolCalls.isEmpty ? "end_turn" : "tool_use" }

    private var anthropicEvents: [StreamEvent] {
        var events: [StreamEvent] = []
        func add(_ type: String, _ members: [(key: String, value: JSONValue)]) {
            events.append(.json(.object([("type", .string(type))] + members), event: type))
        }
        add("message_start", [("message", .object([
            ("id", .string("msg_\(id)")), ("type", .string("message")), ("role", .string("assistant")), ("model", .string(model)),
            ("content", .array([])), ("stop_reason", .null), ("stop_sequence", .null),
            ("usage", .object([("input_tokens", .number(Double(inputTokens))), ("output_tokens", .number(1))])),
        ]))])
        var index = 0
        if hasMessage {
            add("content_block_start", [("index", .number(0)), ("content_block", .object([("type", .string("text")), ("text", .string(""))]))])
            add("ping", [])
            for token in textTokens {
                add("content_block_delta", [("index", .number(0)), ("delta", .object([("type", .string("text_delta")), ("text", .string(token))]))])
            }
            add("content_block_stop", [("index", .number(0))])
            index = 1
        } else {
            add("ping", [])
        }
        for (offset, call) in answer.toolCalls.enumerated() {
            let position = JSONValue.number(Double(index + offset))
            add("content_block_start", [("index", position), ("content_block", .object([
                ("type", .string("tool_use")), ("id", .string(callID(offset, "toolu_"))), ("name", .string(call.name)), ("input", .object([])),
            ]))])
            for fragment in Self.fragments(argumentsText(call)) {
                add("content_block_delta", [("index", position), ("delta", .object([("type", .string("input_json_delta")), ("partial_json", .string(fragment))]))])
            }
            add("content_block_stop", [("index", position)])
        }
        add("message_delta", [("delta", .object([("stop_reason", .string(stopReason)), ("stop_sequence", .null)])),
                              ("usage", .object([("output_tokens", .number(Double(outputTokens)))]))])
        add("message_stop", [])
        return events
    }

    private var anthropicJSON: JSONValue {
        var content: [JSONValue] = hasMessage ? [.object([("type", .string("text")), ("text", .string(text))])] : []
        for (offset, call) in answer.toolCalls.enumerated() {
            content.append(.object([("type", .string("tool_use")), ("id", .string(callID(offset, "toolu_"))), ("name", .string(call.name)),
                                    ("input", call.arguments)]))
        }
        return .object([
            ("id", .string("msg_\(id)")), ("type", .string("message")), ("role", .string("assistant")), ("model", .string(model)),
            ("content", .array(content)), ("stop_reason", .string(stopReason)), ("stop_sequence", .null),
            ("usage", .object([("input_tokens", .number(Double(inputTokens))), ("output_tokens", .number(Double(outputTokens)))])),
        ])
    }
}
