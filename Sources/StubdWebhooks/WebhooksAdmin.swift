import AdminContract
import StubModel
import StubServer
package import AdminAPI

/// `GET /__stubd/webhooks` (the webhooks routes sent, oldest first: route, URL, attempts, status
/// or error; only the caller's session's with `X-Stubd-Session`) and `DELETE` to forget them.
package struct WebhooksAdmin {
    let log: WebhookLog

    /// Its two endpoints, beside the standard ones (`AdminService`'s `extra`).
    package static func endpoints(_ log: WebhookLog) -> [AdminEndpoint] {
        [
            AdminEndpoint(AdminContract.webhooks) { call, _ in WebhooksAdmin(log: log).list(session: call.session) },
            AdminEndpoint(AdminContract.clearWebhooks) { call, _ in WebhooksAdmin(log: log).clear(session: call.session) },
        ]
    }

    func list(session: SessionID?) -> WebhookList {
        WebhookList(log.entries(session: session).map { entry in
            var record = WebhookRecord()
            record.sequence = entry.sequence
            record.time = RequestsAdmin.timestamp(entry.time)
            record.route = entry.route
            record.method = entry.method
            record.url = entry.url
            record.attempts = entry.attempts
            record.session = entry.session?.rawValue
            record.status = entry.status
            record.error = entry.error
            return record
        })
    }

    func clear(session: SessionID?) -> Cleared {
        log.clear(session: session)
        return Cleared()
    }
}
