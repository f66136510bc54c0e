import StubModel

extension FixtureReader {
    /// `"stream": {"status", "headers", "format", "events", "pacing", "split", "fault", "template"}`
    /// (docs/STREAMS.md): every event and every template checked now.
    func readStream(_ value: JSONValue, at field: String) throws(FixtureError) -> StubStream {
        let members = try object(value, at: field, allowed: ["status", "headers", "format", "events", "pacing", "split", "fault", "template"])
        var stream = StubStream(events: [])
        if let value = members["status"] {
            guard case .number(let number) = value, number == number.rounded(), (200...599).contains(number), number != 204, number != 304 else {
                throw fail(join(field, "status"), "expected a status that carries a body (200–599, not 204 or 304), found \(value)")
            }
            stream.status = Int(number)
        }
        stream.headers = try readPairs(members["headers"], at: join(field, "headers"))
        for header in stream.headers {
            if ["content-length", "transfer-encoding", "connection"].contains(header.name.lowercased()) {
                throw fail(join(field, "headers.\(header.name)"), "stubd frames a stream itself (chunked, no length); remove \(header.name)")
            }
            if !HTTPSyntax.isToken(header.name) {
                throw fail(join(field, "headers.\(header.name)"), "\"\(header.name)\" is not a valid header name")
            }
            if let bad = HTTPSyntax.firstInvalidFieldValueCharacter(header.value) {
                throw fail(join(field, "headers.\(header.name)"), "the value contains \(bad), which HTTP header values cannot carry; remove it")
            }
        }
        if let text = try string(members["format"], at: join(field, "format")) {
            guard let format = StubStream.Format(rawValue: text) else {
                throw fail(join(field, "format"), "unknown format \"\(text)\"; use one of \(StubStream.Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            stream.format = format
        }
        guard case .array(let events)? = members["events"], !events.isEmpty else {
            throw fail(join(field, "events"), "expected a non-empty array of events, e.g. [{\"data\": {\"n\": 1}}, {\"event\": \"done\", \"data\": \"bye\"}]")
        }
        for (index, element) in events.enumerated() {
            stream.events.append(try readStreamEvent(element, at: "\(join(field, "events"))[\(index)]", format: stream.format))
        }
        if let pacing = members["pacing"] { stream.pacing = try readPacing(pacing, at: join(field, "pacing")) }
        stream.split = try readSplit(members["split"], at: join(field, "split"))
        stream.fault = try readStreamFault(members["fault"], at: join(field, "fault"))
        stream.template = try readFlag(members["template"], at: join(field, "template"))
        if stream.template {
            for (index, event) in stream.events.enumerated() {
                guard let data = event.data else { continue }
                if case .failure(let problem) = ResponseTemplate.compile(StubHTTPResponse(status: 200, body: Array(data.text.utf8), template: true)) {
                    throw fail("\(join(field, "events"))[\(index)].data", problem.problem.description)
                }
            }
        }
        try checkDuration(stream.events.enumerated().reduce(0) { $0 + stream.pacing.pause(before: $1.offset, own: $1.element.delay, random: 1) },
                          at: field)
        return stream
    }

    private func readStreamEvent(_ value: JSONValue, at field: String, format: StubStream.Format) throws(FixtureError) -> StreamEvent {
        let members = try object(value, at: field, allowed: ["data", "event", "id", "retry", "comment", "delay"])
        var event = StreamEvent()
        switch members["data"] {
        case .string(let text)?: event.data = .text(text)
        case let value?: event.data = .json(value)
        case nil: break
        }
        event.event = try string(members["event"], at: join(field, "event"))
        event.id = try string(members["id"], at: join(field, "id"))
        event.comment = try string(members["comment"], at: join(field, "comment"))
        if let value = members["retry"] {
            guard case .number(let number) = value, number == number.rounded(), number >= 0, number <= 86_400_000 else {
                throw fail(join(field, "retry"), "expected milliseconds, an integer from 0 to 86400000")
            }
            event.retry = Int(number)
        }
        if let value = members["delay"] { event.delay = try streamSeconds(value, at: join(field, "delay")) }
        if format != .sse, event.event != nil || event.id != nil || event.retry != nil || event.comment != nil {
            throw fail(field, "event, id, retry and comment are SSE fields; a \(format.rawValue) stream sends data only")
        }
        if event.data == nil, event.event == nil, event.id == nil, event.retry == nil, event.comment == nil {
            throw fail(field, "an empty event; give data (text or JSON), or an SSE field (event, id, retry, comment)")
        }
        return event
    }

    private func readPacing(_ value: JSONValue, at field: String) throws(FixtureError) -> StreamPacing {
        let members = try object(value, at: field, allowed: ["first", "between", "jitter"])
        var pacing = StreamPacing()
        if let value = members["first"] { pacing.first = try streamSeconds(value, at: join(field, "first")) }
        if let value = members["between"] { pacing.between = try streamSeconds(value, at: join(field, "between")) }
        if let value = members["jitter"] { pacing.jitter = try streamSeconds(value, at: join(field, "jitter")) }
        return pacing
    }

    private func readSplit(_ value: JSONValue?, at field: String) throws(FixtureError) -> StreamSplit? {
        guard let text = try string(value, at: field) else { return nil }
        guard let split = StreamSplit(rawValue: text) else {
            throw fail(field, "unknown split \"\(text)\"; use utf8 (cut inside a multi-byte character) or line (cut inside a line)")
        }
        return split
    }

    private func readStreamFault(_ value: JSONValue?, at field: String) throws(FixtureError) -> StreamFault? {
        guard let value else { return nil }
        let members = try object(value, at: field, allowed: ["kind", "after", "seconds"])
        guard let name = try string(members["kind"], at: join(field, "kind")) else {
            throw fail(join(field, "kind"), "missing; use one of \(StreamFault.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let kind = StreamFault.Kind(rawValue: name) else {
            throw fail(join(field, "kind"), "unknown stream fault \"\(name)\"; use one of \(StreamFault.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard case .number(let after)? = members["after"], after == after.rounded(), after >= 0, after <= 1_000_000 else {
            throw fail(join(field, "after"), "expected how many events go before the fault, an integer from 0, e.g. {\"kind\": \"reset\", \"after\": 3}")
        }
        var fault = StreamFault(kind, after: Int(after))
        if let value = members["seconds"] {
            guard kind == .stall else { throw fail(join(field, "seconds"), "only a stall has seconds (how long it holds the connection)") }
            fault.seconds = try streamSeconds(value, at: join(field, "seconds"))
        }
        return fault
    }

    /// `"llm": {"provider", "text", "toolCalls", "model", "usage", "firstToken", "tokensPerSecond",
    /// "jitter", "stream", "split", "fault", "template"}` (docs/STREAMS.md).
    func readLLMAnswer(_ value: JSONValue, at field: String) throws(FixtureError) -> LLMAnswer {
        let members = try object(value, at: field, allowed: ["provider", "text", "toolCalls", "model", "usage", "firstToken", "tokensPerSecond",
                                                             "jitter", "stream", "split", "fault", "template"])
        let providers = LLMAnswer.Provider.allCases.map(\.rawValue).joined(separator: ", ")
        guard let name = try string(members["provider"], at: join(field, "provider")) else {
            throw fail(join(field, "provider"), "missing; use one of \(providers)")
        }
        guard let provider = LLMAnswer.Provider(rawValue: name) else { throw fail(join(field, "provider"), "unknown provider \"\(name)\"; use one of \(providers)") }
        var answer = LLMAnswer(provider: provider)
        answer.text = try string(members["text"], at: join(field, "text")) ?? ""
        if let calls = members["toolCalls"] {
            guard case .array(let elements) = calls else {
                throw fail(join(field, "toolCalls"), "expected an array of {\"name\": …, \"arguments\": {…}}")
            }
            for (index, element) in elements.enumerated() {
                let at = "\(join(field, "toolCalls"))[\(index)]"
                let call = try object(element, at: at, allowed: ["name", "arguments", "id"])
                guard let callName = try string(call["name"], at: join(at, "name")), !callName.isEmpty else {
                    throw fail(join(at, "name"), "missing; give the function's name")
                }
                guard case .object? = call["arguments"] else {
                    throw fail(join(at, "arguments"), "expected an object of the call's arguments, e.g. {\"city\": \"Paris\"}")
                }
                answer.toolCalls.append(LLMAnswer.ToolCall(name: callName, arguments: call["arguments"]!, id: try string(call["id"], at: join(at, "id"))))
            }
        }
        answer.model = try string(members["model"], at: join(field, "model"))
        if let usage = members["usage"] {
            let counts = try object(usage, at: join(field, "usage"), allowed: ["input", "output"])
            answer.inputTokens = try count(counts["input"], at: join(field, "usage.input"))
            answer.outputTokens = try count(counts["output"], at: join(field, "usage.output"))
        }
        if let value = members["firstToken"] { answer.firstToken = try streamSeconds(value, at: join(field, "firstToken")) }
        if let value = members["tokensPerSecond"] {
            guard case .number(let rate) = value, rate > 0, rate <= 100_000 else {
                throw fail(join(field, "tokensPerSecond"), "expected a rate above 0 and at most 100000, e.g. 40")
            }
            answer.tokensPerSecond = rate
        }
        if let value = members["jitter"] { answer.jitter = try streamSeconds(value, at: join(field, "jitter")) }
        if let text = try string(members["stream"], at: join(field, "stream")) {
            guard let mode = LLMAnswer.Streaming(rawValue: text) else {
                throw fail(join(field, "stream"), "unknown value \"\(text)\"; use request (as the request's \"stream\" says), always or never")
            }
            answer.streaming = mode
        }
        answer.split = try readSplit(members["split"], at: join(field, "split"))
        answer.fault = try readStreamFault(members["fault"], at: join(field, "fault"))
        answer.template = try readFlag(members["template"], at: join(field, "template"))
        if answer.template, case .failure(let problem) = TemplateText.parse(answer.text) {
            throw fail(join(field, "text"), problem.description)
        }
        return answer
    }

    private func streamSeconds(_ value: JSONValue, at field: String) throws(FixtureError) -> Double {
        guard case .number(let seconds) = value, seconds >= 0, seconds <= 600 else {
            throw fail(field, "expected seconds from 0 to 600, e.g. 0.25")
        }
        return seconds
    }

    private func count(_ value: JSONValue?, at field: String) throws(FixtureError) -> Int? {
        guard let value else { return nil }
        guard case .number(let number) = value, number == number.rounded(), number >= 0, number <= 100_000_000 else {
            throw fail(field, "expected a token count, an integer from 0")
        }
        return Int(number)
    }

    private func readFlag(_ value: JSONValue?, at field: String) throws(FixtureError) -> Bool {
        guard let value else { return false }
        guard case .bool(let on) = value else { throw fail(field, "expected true or false") }
        return on
    }

    /// A stream may run at most 10 minutes (a longer one is almost certainly a typo in seconds).
    private func checkDuration(_ seconds: Double, at field: String) throws(FixtureError) {
        if seconds > 600 { throw fail(field, "the events' pauses add up to \(JSONWriter.format(seconds)) s; a stream may last at most 600 s") }
    }
}
