package import StubModel
package import StubdEngine
package import StubdTemplates
package import StubServer
import Foundation

/// One webhook rendered for the request that caused it: what will be sent, or why it cannot be
/// (a URL made from the request that is not a URL). Made on the request's loop when the route
/// answers, so every substitution reads that request and that moment.
package struct WebhookDelivery: Sendable {
    /// The route that answered.
    package let routeName: String
    /// The session of the request that caused it.
    package let session: SessionID?
    /// The rendered URL (for the log).
    package let url: String
    /// The request, or why there is none.
    package let request: Result<UpstreamRequest, WebhookURLProblem>
    /// Seconds before the first attempt.
    package let delay: Double
    /// Attempts after the first.
    package let retries: Int
    /// Seconds between attempts.
    package let retryDelay: Double
    /// Where it goes, when the URL parsed; with `hostIsConstant`, for `OwnTraffic.refusal`.
    package let destination: WebhookDestination?
    /// Whether the fixture's URL names scheme, host and port itself (the request chose at most the
    /// path or query).
    package let hostIsConstant: Bool

    /// Webhooks a chain may send: a request this deep (by stubd's own proof, `OwnTraffic`) sends none.
    package static let maxDepth = OwnTraffic.maxWebhookDepth

    /// Renders `route`'s webhooks for `request`; `own` says how deep in a chain the request is
    /// and marks each webhook one deeper.
    package static func render(_ route: Route, request: IncomingRequest, session: SessionID?, state: TemplateState,
                       collections: any CollectionItemsSource, own: OwnTraffic) -> [WebhookDelivery] {
        let depth = own.webhookDepth(of: request)
        guard depth < maxDepth else { return [] }
        let renderer = TemplateRenderer(OutcomeContext(request: request, route: route, session: session, state: state, collections: collections))
        // Compiled when they are sent (a route with webhooks is rare; the core keeps no slot for them).
        return route.fixture.webhooks.compactMap(CompiledWebhook.init).map { webhook in
            let url: String
            let message: PreparedReply
            do throws(TemplateRenderer.Failure) {
                url = try renderer.render(webhook.url, encodingForURL: true)
                message = try renderer.renderMessage(webhook.template).get()
            } catch {
                let problem = WebhookURLProblem(renderer.explain(error))
                return WebhookDelivery(routeName: route.name, session: session, url: webhook.url.source, request: .failure(problem),
                                       delay: webhook.delay, retries: webhook.retries, retryDelay: webhook.retryDelay,
                                       destination: nil, hostIsConstant: webhook.hostIsConstant)
            }
            let destination = WebhookDestination.parse(url)
            let upstream = destination.map { destination in
                var headers = message.headers
                headers.removeAll { $0.name.equalsIgnoringCase("Host") || $0.name.equalsIgnoringCase(OwnTraffic.depthHeader) }
                headers.append(NameValue("Host", destination.hostHeader))
                headers.append(NameValue(OwnTraffic.depthHeader, own.depthValue(depth + 1)))
                var upstream = UpstreamRequest(host: destination.host, port: destination.port, method: webhook.method,
                                               target: destination.target, headers: headers, body: message.body,
                                               timeoutSeconds: WebhookDelivery.timeoutSeconds)
                if destination.scheme == "https" { upstream.tls = UpstreamTLS() }
                return upstream
            }
            return WebhookDelivery(routeName: route.name, session: session, url: url, request: upstream, delay: webhook.delay,
                                   retries: webhook.retries, retryDelay: webhook.retryDelay, destination: try? destination.get(),
                                   hostIsConstant: webhook.hostIsConstant)
        }
    }

    /// Seconds one attempt may take.
    package static let timeoutSeconds = 10.0
}

/// A webhook ready to send, compiled once with its route.
package struct CompiledWebhook: Sendable {
    package let method: String
    package let url: TemplateText
    /// Headers and body.
    package let template: ResponseTemplate
    package let delay: Double
    package let retries: Int
    package let retryDelay: Double
    /// Whether the URL's scheme, host and port are written in the fixture, before any `{{…}}`.
    package let hostIsConstant: Bool

    /// Nil when the headers or body do not compile (the fixture reader refused those already).
    package init?(_ webhook: Webhook) {
        guard let template = try? webhook.compile().get() else { return nil }
        method = webhook.method
        url = webhook.url
        hostIsConstant = Self.namesHost(webhook.url)
        self.template = template
        delay = webhook.delay
        retries = webhook.retries
        retryDelay = webhook.retryDelay
    }

    /// Whether the literal text before the first substitution holds a whole `scheme://authority`
    /// (ended by `/`, `?` or `#`, or the URL is constant).
    package static func namesHost(_ url: TemplateText) -> Bool {
        if url.isConstant { return true }
        guard case .literal(let text)? = url.parts.first, let schemeEnd = text.range(of: "://") else { return false }
        return text[schemeEnd.upperBound...].contains { $0 == "/" || $0 == "?" || $0 == "#" }
    }
}
