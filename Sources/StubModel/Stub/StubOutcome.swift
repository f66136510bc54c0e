/// What a stub answers with.
public enum StubOutcome: Sendable, Equatable {
    /// An HTTP response.
    case response(StubHTTPResponse)
    /// Moya's `.networkError(NSError)`: answered with the wire fault docs/FAULTS.md's table gives for
    /// this error (`Fault.forNetworkError(domain:code:)`).
    case networkError(domain: String, code: Int)
    /// A wire fault named directly.
    case fault(Fault)
    /// A route of a collection (`CollectionSpec`): the answer comes from the session's items.
    case collection(CollectionOperation)
    /// A response whose body is a series of events sent over time (docs/STREAMS.md).
    case stream(StubStream)
    /// A language-model API's answer: its streaming envelope or its JSON, as the request asks.
    case llm(LLMAnswer)
    /// Accept a WebSocket upgrade and hold this conversation (`"websocket"`).
    case websocket(WebSocketScript)

    /// The fault the server produces, if the outcome is not an HTTP response.
    public var fault: Fault? {
        switch self {
        case .response, .collection, .stream, .llm, .websocket: return nil
        case .networkError(let domain, let code): return Fault.forNetworkError(domain: domain, code: code)
        case .fault(let fault): return fault
        }
    }
}

/// A status, headers and body.
///
/// Equality treats headers as HTTP does: names case-insensitively, order across names ignored
/// (Foundation's `HTTPURLResponse` re-cases `ETag` as `Etag` and forgets the order).
public struct StubHTTPResponse: Sendable, Equatable {
    /// The status code (100–599).
    public var status: Int
    /// Headers to send, in order. Empty for Moya's `.networkResponse`, which has none.
    public var headers: [NameValue]
    /// The body bytes.
    public var body: [UInt8]
    /// Whether the body and header values are templates (`"template": true`), rendered for each
    /// request; otherwise they are sent as written, `{{` included.
    public var template: Bool
    /// Which Handlebars its templates are written in (`"template": "wiremock"`: `{{…}}` escapes HTML).
    public var templateDialect: TemplateDialect = .stubd
    /// Fields sent after the body (`"trailers"`): a trailing HEADERS frame over HTTP/2, a chunked
    /// body's trailer section over HTTP/1.1 (announced in `Trailer`), as gRPC and checksums use
    /// them. Sent as written, never templated.
    public var trailers: [NameValue] = []

    /// Creates a response.
    public init(status: Int, headers: [NameValue] = [], body: [UInt8] = [], template: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.template = template
    }

    /// Equal as HTTP sees it: same status and body, header names compared case-insensitively and order across names ignored.
    public static func == (lhs: StubHTTPResponse, rhs: StubHTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.template == rhs.template && lhs.templateDialect == rhs.templateDialect
            && canonical(lhs.headers) == canonical(rhs.headers) && canonical(lhs.trailers) == canonical(rhs.trailers)
    }

    private static func canonical(_ headers: [NameValue]) -> [NameValue] {
        headers.map { NameValue($0.name.lowercased(), $0.value) }.sorted()
    }
}
