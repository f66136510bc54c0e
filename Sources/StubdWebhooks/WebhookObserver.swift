import StubModel
import StubdEngine
package import StubdTemplates
package import StubServer

/// Sends a route's webhooks once its answer has gone: an exchange observer, so a webhook never
/// leaves before the answer that caused it (the route's delay included). Each is rendered for the
/// exchange's request, then sent from the request's loop through the engine's own-request call (no
/// loop waits): after its `delay`, and again after `retryDelay` when the connection is refused,
/// times out, or the answer is a 5xx, up to `retries` more times. A webhook whose destination is
/// stubd itself is refused as `OwnTraffic.refusal` says; past `WebhookLog.maxInFlight` one is
/// dropped; every one ends in the log.
package struct WebhookObserver: ExchangeObserver {
    package let log: WebhookLog
    package let redactor: Redactor
    package let own: OwnTraffic
    /// What the templates read: the clocks, counters and saved values; the collections.
    package let state: TemplateState
    package let collections: any CollectionItemsSource

    package init(log: WebhookLog, redactor: Redactor, own: OwnTraffic, state: TemplateState, collections: any CollectionItemsSource) {
        (self.log, self.redactor, self.own, self.state, self.collections) = (log, redactor, own, state, collections)
    }

    package func exchangeEnded(_ exchange: Exchange) {
        guard let route = exchange.routeSendingWebhooks, let upstream = exchange.reply?.upstream else { return }
        let deliveries = WebhookDelivery.render(route, request: exchange.request, session: exchange.session, state: state,
                                                collections: collections, own: own)
        for delivery in deliveries { send(delivery, via: upstream) }
    }

    private func send(_ delivery: WebhookDelivery, via upstream: UpstreamClient) {
        let url = redactedURL(delivery.url)
        switch delivery.request {
        case .failure(let problem):
            log.ended(delivery, method: "-", url: url, attempts: 0, status: nil, error: problem.description, slotHeld: false)
        case .success(let request):
            if let destination = delivery.destination, let refusal = own.refusal(for: destination, hostIsConstant: delivery.hostIsConstant) {
                log.ended(delivery, method: request.method, url: url, attempts: 0, status: nil, error: refusal, slotHeld: false)
                return
            }
            guard log.begin() else {
                log.ended(delivery, method: request.method, url: url, attempts: 0, status: nil,
                          error: "dropped: \(log.maxInFlight) webhooks are already under way", slotHeld: false)
                return
            }
            attempt(delivery, request, url: url, number: 1, after: delivery.delay, via: upstream)
        }
    }

    private func attempt(_ delivery: WebhookDelivery, _ request: UpstreamRequest, url: String, number: Int, after seconds: Double,
                         via upstream: UpstreamClient) {
        upstream.send(request, after: seconds) { response in
            var status: Int?
            var error: String?
            switch response {
            case .answered(let code, _, _), .relayed(let code, _, _, _): status = code
            case .failed(let reason): error = reason
            }
            let retry = error != nil || (status ?? 0) >= 500
            if retry, number <= delivery.retries {
                attempt(delivery, request, url: url, number: number + 1, after: delivery.retryDelay, via: upstream)
                return
            }
            log.ended(delivery, method: request.method, url: url, attempts: number, status: status, error: error, slotHeld: true)
        }
    }

    private func redactedURL(_ url: String) -> String {
        guard let mark = url.firstIndex(of: "?") else { return url }
        return String(url[..<mark]) + "?" + redactor.query(String(url[url.index(after: mark)...]))
    }
}
