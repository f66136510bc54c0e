import StubModel
import StubdEngine

/// Sends rendered webhooks from the loop of the request that caused them, through the engine's
/// own-request call (no loop waits): after the delay, then again after `retryDelay` when the
/// connection is refused, times out, or the answer is a 5xx, up to `retries` more times.
struct WebhookSender {
    let log: WebhookLog
    let redactor: Redactor
    /// What stubd itself is: webhooks never go to its admin API, nor where the request chose
    /// unless allowed (`OwnTraffic.refusal`).
    let own: OwnTraffic

    /// Starts `deliveries` on `reply`'s loop; `after` is when the answer leaves (the route's
    /// delay), so no webhook arrives before the answer that caused it.
    func send(_ deliveries: [WebhookDelivery], via reply: ReplyHandle, after answerDelay: Double) {
        for delivery in deliveries {
            let url = redactedURL(delivery.url)
            switch delivery.request {
            case .failure(let problem):
                log.ended(delivery, method: "-", url: url, attempts: 0, status: nil, error: problem.description, slotHeld: false)
            case .success(let request):
                if let destination = delivery.destination, let refusal = own.refusal(for: destination, hostIsConstant: delivery.hostIsConstant) {
                    log.ended(delivery, method: request.method, url: url, attempts: 0, status: nil, error: refusal, slotHeld: false)
                    continue
                }
                guard log.begin() else {
                    log.ended(delivery, method: request.method, url: url, attempts: 0, status: nil,
                              error: "dropped: \(log.maxInFlight) webhooks are already under way", slotHeld: false)
                    continue
                }
                attempt(delivery, request, url: url, number: 1, after: answerDelay + delivery.delay, via: reply)
            }
        }
    }

    private func attempt(_ delivery: WebhookDelivery, _ request: UpstreamRequest, url: String, number: Int, after seconds: Double,
                         via reply: ReplyHandle) {
        reply.send(request, after: seconds) { response in
            var status: Int?
            var error: String?
            switch response {
            case .answered(let code, _, _), .relayed(let code, _, _): status = code
            case .failed(let reason): error = reason
            }
            let retry = error != nil || (status ?? 0) >= 500
            if retry, number <= delivery.retries {
                attempt(delivery, request, url: url, number: number + 1, after: delivery.retryDelay, via: reply)
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
