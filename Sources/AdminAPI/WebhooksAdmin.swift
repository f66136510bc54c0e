import AdminContract
import StubModel
import StubServer

/// `GET /__stubd/webhooks` (the webhooks routes sent, oldest first: route, URL, attempts, status
/// or error; only the caller's session's with `X-Stubd-Session`) and `DELETE` to forget them.
struct WebhooksAdmin {
    let state: StubAdmin

    func list(session: SessionID?) -> WebhookList {
        WebhookList(state.webhooks.entries(session: session).map { entry in
            WebhookRecord(sequence: entry.sequence, time: RequestsAdmin.timestamp(entry.time), route: entry.route, method: entry.method,
                          url: entry.url, attempts: entry.attempts, session: entry.session?.rawValue, status: entry.status, error: entry.error)
        })
    }

    func clear(session: SessionID?) -> Cleared {
        state.webhooks.clear(session: session)
        return Cleared()
    }
}
