/// One high-level answer of a large-language-model API, expanded into the provider's exact
/// streaming envelope (when the request asks to stream) or its JSON response: the text cut into
/// tokens, tool calls with their arguments sent in fragments, the finish reason, usage.
///
/// The envelopes follow the providers' API references: OpenAI Chat Completions
/// (`chat.completion.chunk` objects, `data: [DONE]`), OpenAI Responses (typed `response.*`
/// events) and Anthropic Messages (`message_start` … `message_stop`). `LLMEnvelope` writes them.
public struct LLMAnswer: Sendable, Equatable {
    /// Whose API the answer imitates.
    public enum Provider: String, Sendable, CaseIterable {
        /// `POST /v1/chat/completions`.
        case openaiChat = "openai-chat"
        /// `POST /v1/responses`.
        case openaiResponses = "openai-responses"
        /// `POST /v1/messages`.
        case anthropic
    }

    /// When the answer streams.
    public enum Streaming: String, Sendable, CaseIterable {
        /// As the request's JSON body says (`"stream": true`), as the providers do.
        case request
        /// Always as a stream.
        case always
        /// Always as one JSON response.
        case never
    }

    /// A tool (function) the model calls.
    public struct ToolCall: Sendable, Equatable {
        /// The function's name.
        public var name: String
        /// Its arguments, an object; streamed as fragments of its compact JSON text.
        public var arguments: JSONValue
        /// The call's id (`call_…`, `toolu_…`); made from the answer's id when nil.
        public var id: String?

        /// Creates a tool call.
        public init(name: String, arguments: JSONValue, id: String? = nil) {
            self.name = name
            self.arguments = arguments
            self.id = id
        }
    }

    /// Which provider's envelope.
    public var provider: Provider
    /// The text of the answer (a template when `template` is set).
    public var text: String
    /// Tool calls after the text.
    public var toolCalls: [ToolCall]
    /// The model named in the answer; nil answers with the request's `model`.
    public var model: String?
    /// Input tokens reported; nil estimates them from the request (a token per 4 bytes of body).
    public var inputTokens: Int?
    /// Output tokens reported; nil counts the tokens and fragments sent.
    public var outputTokens: Int?
    /// Seconds to the first token (the first event after the head).
    public var firstToken: Double
    /// Tokens per second after the first (0: all at once).
    public var tokensPerSecond: Double
    /// Largest change either way to each pause, drawn from the session's seed.
    public var jitter: Double
    /// When it streams.
    public var streaming: Streaming
    /// What goes wrong inside the stream, if anything (counted in events of the envelope).
    public var fault: StreamFault?
    /// Cut each event into two writes, if set.
    public var split: StreamSplit?
    /// Whether `text` is a template (reading the request: `{{jsonPath request.body '$.messages[-1:].content'}}`).
    public var template: Bool

    /// Creates an answer.
    public init(provider: Provider, text: String = "", toolCalls: [ToolCall] = [], model: String? = nil, inputTokens: Int? = nil,
                outputTokens: Int? = nil, firstToken: Double = 0, tokensPerSecond: Double = 0, jitter: Double = 0,
                streaming: Streaming = .request, fault: StreamFault? = nil, split: StreamSplit? = nil, template: Bool = false) {
        self.provider = provider
        self.text = text
        self.toolCalls = toolCalls
        self.model = model
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.firstToken = firstToken
        self.tokensPerSecond = tokensPerSecond
        self.jitter = jitter
        self.streaming = streaming
        self.fault = fault
        self.split = split
        self.template = template
    }

    /// The pacing of the streamed envelope: the first event at `firstToken`, then one token's time
    /// per event.
    public var pacing: StreamPacing {
        StreamPacing(first: firstToken, between: tokensPerSecond > 0 ? 1 / tokensPerSecond : 0, jitter: jitter)
    }

    /// Whether a request whose JSON body says `stream` (nil: not said) gets the stream.
    public func streams(requestSays stream: Bool?) -> Bool {
        switch streaming {
        case .request: return stream ?? false
        case .always: return true
        case .never: return false
        }
    }
}
