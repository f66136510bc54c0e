import StubModel
import StubdEngine

/// One webhook rendered for the request that caused it: what will be sent, or why it cannot be
/// (a URL made from the request that is not a URL). Made on the request's loop when the route
/// answers, so every substitution reads that request and that moment.
struct WebhookDelivery: Sendable {
    /// The route that answered.
    let routeName: String
    /// The session of the request that caused it.
    let session: SessionID?
    /// The rendered URL (for the log).
    let url: String
    /// The request, or why there is none.
    let request: Result<UpstreamRequest, WebhookURLProblem>
    /// Seconds before the first attempt.
    let delay: Double
    /// Attempts after the first.
    let retries: Int
    /// Seconds between attempts.
    let retryDelay: Double

    /// The header that carries how many webhooks led to a request, so a webhook pointed at a
    /// route that sends one cannot loop for ever.
    static let depthHeader = "X-Stubd-Webhook-Depth"
    /// Webhooks a chain may send: a request this deep sends none.
    static let maxDepth = 5

    /// How deep in a webhook chain `request` is (0 for a request no webhook sent).
    static func depth(of request: IncomingRequest) -> Int {
        request.header(depthHeader).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// Renders `route`'s webhooks for `request`.
    static func render(_ route: Route, request: IncomingRequest, session: SessionID?, state: TemplateState,
                       collections: any CollectionItemsSource) -> [WebhookDelivery] {
        let depth = depth(of: request)
        guard depth < maxDepth else { return [] }
        let renderer = TemplateRenderer(request: request, route: route, session: session, state: state, collections: collections)
        return route.webhooks.map { webhook in
            let url = renderer.render(webhook.url)
            let message = renderer.render(webhook.template)
            let upstream = WebhookDestination.parse(url).map { destination in
                var headers = message.headers
                headers.removeAll { $0.name.equalsIgnoringCase("Host") || $0.name.equalsIgnoringCase(depthHeader) }
                headers.append(NameValue("Host", destination.hostHeader))
                headers.append(NameValue(depthHeader, String(depth + 1)))
                var upstream = UpstreamRequest(host: destination.host, port: destination.port, method: webhook.method,
                                               target: destination.target, headers: headers, body: message.body,
                                               timeoutSeconds: WebhookDelivery.timeoutSeconds)
                if destination.scheme == "https" { upstream.tls = UpstreamTLS() }
                return upstream
            }
            return WebhookDelivery(routeName: route.name, session: session, url: url, request: upstream, delay: webhook.delay,
                                   retries: webhook.retries, retryDelay: webhook.retryDelay)
        }
    }

    /// Seconds one attempt may take.
    static let timeoutSeconds = 10.0
}

/// A webhook ready to send, compiled once with its route.
struct CompiledWebhook: Sendable {
    let method: String
    let url: TemplateText
    /// Headers and body.
    let template: ResponseTemplate
    let delay: Double
    let retries: Int
    let retryDelay: Double

    /// Nil when the headers or body do not compile (the fixture reader refused those already).
    init?(_ webhook: Webhook) {
        guard let template = try? webhook.compile().get() else { return nil }
        method = webhook.method
        url = webhook.url
        self.template = template
        delay = webhook.delay
        retries = webhook.retries
        retryDelay = webhook.retryDelay
    }
}
