/// The fixture-file form of streams and language-model answers (`"stream": {…}`, `"llm": {…}`),
/// as `FixtureWriter` writes them; FixtureFiles reads the same shape back (docs/STREAMS.md).
public enum StreamFixtureJSON {
    /// A stream object: only the fields that differ from the defaults.
    public static func stream(_ stream: StubStream) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        if stream.status != 200 { fields.append(("status", .number(Double(stream.status)))) }
        if !stream.headers.isEmpty { fields.append(("headers", .object(stream.headers.map { ($0.name, .string($0.value)) }))) }
        if stream.format != .sse { fields.append(("format", .string(stream.format.rawValue))) }
        fields.append(("events", .array(stream.events.map(event))))
        if let pacing = pacing(stream.pacing) { fields.append(("pacing", pacing)) }
        if let split = stream.split { fields.append(("split", .string(split.rawValue))) }
        if let fault = stream.fault { fields.append(("fault", self.fault(fault))) }
        if stream.template { fields.append(("template", .bool(true))) }
        return .object(fields)
    }

    /// One event object.
    public static func event(_ event: StreamEvent) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = []
        if let comment = event.comment { fields.append(("comment", .string(comment))) }
        if let id = event.id { fields.append(("id", .string(id))) }
        if let name = event.event { fields.append(("event", .string(name))) }
        if let retry = event.retry { fields.append(("retry", .number(Double(retry)))) }
        switch event.data {
        case .text(let text)?: fields.append(("data", .string(text)))
        case .json(let value)?: fields.append(("data", value))
        case nil: break
        }
        if let delay = event.delay { fields.append(("delay", .number(delay))) }
        return .object(fields)
    }

    /// `{"first", "between", "jitter"}` without the zeros; nil when all are 0.
    public static func pacing(_ pacing: StreamPacing) -> JSONValue? {
        var fields: [(key: String, value: JSONValue)] = []
        if pacing.first != 0 { fields.append(("first", .number(pacing.first))) }
        if pacing.between != 0 { fields.append(("between", .number(pacing.between))) }
        if pacing.jitter != 0 { fields.append(("jitter", .number(pacing.jitter))) }
        return fields.isEmpty ? nil : .object(fields)
    }

    /// `{"kind", "after", "seconds"?}`.
    public static func fault(_ fault: StreamFault) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = [("kind", .string(fault.kind.rawValue)), ("after", .number(Double(fault.after)))]
        if let seconds = fault.seconds { fields.append(("seconds", .number(seconds))) }
        return .object(fields)
    }

    /// A language-model answer object: only the fields that differ from the defaults.
    public static func llm(_ answer: LLMAnswer) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = [("provider", .string(answer.provider.rawValue))]
        if !answer.text.isEmpty { fields.append(("text", .string(answer.text))) }
        if !answer.toolCalls.isEmpty {
            fields.append(("toolCalls", .array(answer.toolCalls.map { call in
                var members: [(key: String, value: JSONValue)] = [("name", .string(call.name)), ("arguments", call.arguments)]
                if let id = call.id { members.append(("id", .string(id))) }
                return .object(members)
            })))
        }
        if let model = answer.model { fields.append(("model", .string(model))) }
        if answer.inputTokens != nil || answer.outputTokens != nil {
            var usage: [(key: String, value: JSONValue)] = []
            if let input = answer.inputTokens { usage.append(("input", .number(Double(input)))) }
            if let output = answer.outputTokens { usage.append(("output", .number(Double(output)))) }
            fields.append(("usage", .object(usage)))
        }
        if answer.firstToken != 0 { fields.append(("firstToken", .number(answer.firstToken))) }
        if answer.tokensPerSecond != 0 { fields.append(("tokensPerSecond", .number(answer.tokensPerSecond))) }
        if answer.jitter != 0 { fields.append(("jitter", .number(answer.jitter))) }
        if answer.streaming != .request { fields.append(("stream", .string(answer.streaming.rawValue))) }
        if let split = answer.split { fields.append(("split", .string(split.rawValue))) }
        if let fault = answer.fault { fields.append(("fault", self.fault(fault))) }
        if answer.template { fields.append(("template", .bool(true))) }
        return .object(fields)
    }
}
