import Foundation
package import StubModel
package import StubdEngine
package import StubdTemplates

/// A route's streamed answer compiled once (event templates parsed), and made per request into
/// what the engine plays: a `StreamScript` — events rendered, pauses drawn from the session's
/// seed, split and fault applied — or, for a language-model answer the request does not ask to
/// stream, one JSON reply.
package struct StreamComposer: Sendable {
    private enum Source: Sendable {
        /// A stream, with per event the template its data is rendered from (nil: sent as written)
        /// and the events as written, encoded once for every request.
        case stream(StubStream, templates: [ResponseTemplate?], encoded: [[UInt8]])
        /// A language-model answer, with its text's template when templated.
        case llm(LLMAnswer, text: TemplateText?)
    }

    private let source: Source

    /// The status its stream starts with (a language-model answer's is 200, streamed or not).
    package var status: Int {
        switch source {
        case .stream(let stream, _, _): return stream.status
        case .llm: return 200
        }
    }

    /// The composer for `outcome`, or nil when it is not a stream (or a template does not
    /// compile: the fixture reader has refused that already).
    package init?(_ outcome: StubOutcome) {
        switch outcome {
        case .stream(let stream):
            var templates: [ResponseTemplate?] = []
            if stream.template {
                for event in stream.events {
                    guard let data = event.data else { templates.append(nil); continue }
                    let template = try? ResponseTemplate.compile(StubHTTPResponse(status: 200, body: Array(data.text.utf8), template: true)).get()
                    templates.append(template)
                }
            }
            source = .stream(stream, templates: templates, encoded: stream.events.map { $0.encoded(as: stream.format) })
        case .llm(let answer):
            source = .llm(answer, text: answer.template ? try? TemplateText.parse(answer.text).get() : nil)
        default:
            return nil
        }
    }

    /// What the request of `context` receives.
    package func content(_ context: OutcomeContext) -> ReplyContent {
        let request = context.request, state = context.state, session = context.session
        let renderer = TemplateRenderer(context)
        switch source {
        case .stream(var stream, var templates, var encoded):
            // A reconnecting EventSource goes on after the last event it read (`StreamResume`).
            if stream.format == .sse, let last = StubStream.lastEventID(headers: request.headers, rawQuery: request.rawQuery),
               let (rest, skipped) = stream.resumed(after: last) {
                stream = rest
                templates = Array(templates.dropFirst(skipped))
                encoded = Array(encoded.dropFirst(skipped))
            }
            var payloads: [String?] = []
            // The events together are one rendering: their output is held to one bound (10
            // clients of a stream echoing a 60 KB query 700 times held 433 MB).
            let bound = renderer.outputBound(templateBytes: templates.reduce(0) { $0 + ($1?.size ?? 0) })
            var rendered = 0
            for template in templates {
                guard let template else { payloads.append(nil); continue }
                switch renderer.renderMessage(template) {
                case .success(let reply):
                    rendered += reply.body.count
                    guard rendered <= bound else { return .response(renderer.failureReply(.outputBound(bound))) }
                    payloads.append(String(decoding: reply.body, as: UTF8.self))
                case .failure(let failure): return .response(renderer.failureReply(failure))
                }
            }
            return .script(Self.script(stream, payloads: payloads, encoded: encoded, state: state, session: session))
        case .llm(let answer, let template):
            var text = answer.text
            if let template {
                do {
                    text = try renderer.render(template)
                } catch {
                    return .response(renderer.failureReply(error))
                }
            }
            let body = try? JSONParser.parse(request.body)
            var includeUsage = false
            if case .bool(true)? = body?["stream_options"]?["include_usage"] { includeUsage = true }
            var asked: Bool?
            if case .bool(let flag)? = body?["stream"] { asked = flag }
            var model = answer.model ?? "stubd-model"
            if answer.model == nil, case .string(let named)? = body?["model"] { model = named }
            let random = state.random(session: session)
            let envelope = LLMEnvelope(answer: answer, text: text, model: model, created: Int(state.now(session: session).timeIntervalSince1970),
                                       id: String(random, radix: 16), inputTokens: answer.inputTokens ?? max(1, request.body.count / 4),
                                       includeUsage: includeUsage)
            guard answer.streams(requestSays: asked) else {
                return .response(PreparedReply(status: 200, headers: [NameValue("Content-Type", "application/json"),
                                                                       NameValue("X-Content-Type-Options", "nosniff")],
                                               body: Array(JSONWriter.write(envelope.json, pretty: false).utf8)))
            }
            let stream = StubStream(events: envelope.events, pacing: answer.pacing, split: answer.split, fault: answer.fault)
            return .script(Self.script(stream, payloads: [], state: state, session: session))
        }
    }

    /// The engine's script for `stream` with `payloads` rendered.
    package static func script(_ stream: StubStream, payloads: [String?], encoded: [[UInt8]] = [], state: TemplateState, session: SessionID?) -> StreamScript {
        let writes = stream.writes(payloads: payloads, encoded: encoded, speed: state.streamSpeed) {
            Double(state.random(session: session) >> 11) / Double(1 << 53)
        }
        let ending: StreamScript.Ending = switch writes.ending {
        case .finish: .finish
        case .reset: .reset
        case .close: .close
        case .stall(let seconds): .stall(seconds: seconds)
        }
        return StreamScript(status: stream.status, headers: StubStream.headersWithDefaults(stream.headers, format: stream.format),
                            steps: writes.writes.map { StreamScript.Step(after: $0.after, bytes: $0.bytes) }, ending: ending,
                            endingAfter: writes.endingAfter)
    }
}
