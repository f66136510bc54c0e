/// A request stubd sends after a route answers (`"webhooks"` in a fixture): a payment provider's
/// callback, a job's "done" notification — what the app's backend would receive from a third
/// party while the app under test waits for its effect. URL, header values and body are
/// templates, rendered with the request that reached the route (as a templated response is).
public struct Webhook: Sendable, Hashable {
    /// The method sent (`POST` when the fixture gives none).
    public var method: String
    /// Where to send it: `http(s)://host[:port]/path?query` once rendered.
    public var url: TemplateText
    /// Headers sent; values may be templates.
    public var headers: [NameValue]
    /// The body; JSON keeps its structure and only its strings are rendered, text is rendered
    /// whole, other bytes are sent as they are.
    public var body: [UInt8]
    /// Seconds after the answer is sent before the first attempt.
    public var delay: Double
    /// Further attempts after a refused connection, a time-out or a 5xx answer.
    public var retries: Int
    /// Seconds between attempts.
    public var retryDelay: Double

    /// The most attempts a webhook may make (its first and `retries` more), so that one route
    /// cannot keep a loop sending for ever.
    public static let maxRetries = 10

    /// A webhook.
    public init(method: String = "POST", url: TemplateText, headers: [NameValue] = [], body: [UInt8] = [], delay: Double = 0,
                retries: Int = 0, retryDelay: Double = 1) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.delay = delay
        self.retries = retries
        self.retryDelay = retryDelay
    }

    /// The headers and body as one template (the response template's form, status unused).
    public func compile() -> Result<ResponseTemplate, ResponseTemplate.Problem> {
        ResponseTemplate.compile(StubHTTPResponse(status: 200, headers: headers, body: body, template: true))
    }
}
