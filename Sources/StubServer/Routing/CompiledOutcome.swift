import StubModel
import StubdEngine
import StubdStreams
import StubdWebSockets

/// One step of a route (most routes have one), made ready when the route is loaded. A closed set:
/// an answer kind is one case here and one module below the serving core, so the compiler lists
/// every `switch` a new kind must join, and the plain hit keeps its static dispatch. The large
/// payloads are boxed (`indirect`), so a step is one reference wide and reading one is a retain,
/// not a copy of a template or a collection's spec.
enum CompiledOutcome: Sendable {
    /// A response sent as written, built once.
    case prepared(PreparedReply)
    /// A wire fault (`reset`, `empty`, …), or a Moya network error mapped to one.
    case fault(Fault)
    /// A response rendered per request (`"template": true`); `head` is its status and headers made
    /// once when no header value is templated.
    indirect case templated(ResponseTemplate, head: PreparedReply?)
    /// A stream of events, or a language-model answer (`"stream"`, `"llm"`).
    indirect case stream(StreamComposer)
    /// An answer made from the session's items of a collection.
    indirect case collection(CollectionOperation)
    /// A WebSocket conversation (`"websocket"`).
    case webSocket(CompiledWebSocket)

    /// The compiled form of `outcome`. A template that does not compile was refused by the
    /// fixture reader already; one that reaches here anyway is sent as written.
    init(_ outcome: StubOutcome) {
        if let fault = outcome.fault {
            self = .fault(fault)
            return
        }
        switch outcome {
        case .response(let response) where response.template:
            guard case .success(let template) = ResponseTemplate.compile(response) else {
                self = .prepared(PreparedReply(status: response.status, headers: response.headers, body: response.body, trailers: response.trailers))
                return
            }
            self = .templated(template, head: Self.constantHead(of: template))
        case .response(let response):
            self = .prepared(PreparedReply(status: response.status, headers: response.headers, body: response.body, trailers: response.trailers))
        case .collection(let operation):
            self = .collection(operation)
        case .websocket(let script):
            self = .webSocket(CompiledWebSocket(script))
        case .stream, .llm:
            // `StreamComposer` takes every stream and language-model outcome.
            self = .stream(StreamComposer(outcome)!)
        case .networkError, .fault:
            preconditionFailure("a fault outcome was taken above")
        }
    }

    /// A template's status and headers, when every header value is constant.
    private static func constantHead(of template: ResponseTemplate) -> PreparedReply? {
        guard template.headers.allSatisfy({ $0.value.isConstant }) else { return nil }
        let headers = template.headers.map { header in
            NameValue(header.name, header.value.parts.map { part in if case .literal(let text) = part { text } else { "" } }.joined())
        }
        return PreparedReply(status: template.status, headers: headers, body: [], trailers: template.trailers)
    }

    /// What the step answers, as listings show it: `200`, `fault:reset`, `200 stream`,
    /// `101 websocket`, `201 collection`.
    var label: String {
        switch self {
        case .prepared(let reply): return String(reply.status)
        case .templated(let template, _): return String(template.status)
        case .fault(let fault): return "fault:\(fault.rawValue)"
        case .stream(let composer): return "\(composer.status) stream"
        case .collection(let operation): return "\(operation.action.status) collection"
        case .webSocket: return "101 websocket"
        }
    }

    /// The WebSocket it holds, when it is one.
    var webSocket: CompiledWebSocket? {
        if case .webSocket(let compiled) = self { return compiled }
        return nil
    }
}

extension CollectionSpec.Action {
    /// The status a collection route answers when the change succeeds.
    var status: Int {
        switch self {
        case .create: return 201
        case .delete: return 204
        case .list, .read, .replace, .update: return 200
        }
    }
}
