import StubModel
import StubdEngine

/// `GET /__stubd/webhooks` (the webhooks routes sent, oldest first: route, URL, attempts, status
/// or error; only the caller's session's with `X-Stubd-Session`) and `DELETE` to forget them.
struct WebhooksAdmin {
    let admin: StubAdmin

    func list(session: SessionID?) -> PreparedReply {
        let entries = admin.webhooks.entries(session: session).map { entry -> JSONValue in
            var members: [(key: String, value: JSONValue)] = [
                ("sequence", AdminReply.number(entry.sequence)), ("time", .string(RequestsAdmin.timestamp(entry.time))),
                ("route", .string(entry.route)), ("method", .string(entry.method)), ("url", .string(entry.url)),
                ("attempts", AdminReply.number(entry.attempts)),
            ]
            if let session = entry.session { members.append(("session", .string(session.rawValue))) }
            if let status = entry.status { members.append(("status", AdminReply.number(status))) }
            if let error = entry.error { members.append(("error", .string(error))) }
            return .object(members)
        }
        return AdminReply.json(.object([("webhooks", .array(entries))]))
    }

    func clear(session: SessionID?) -> PreparedReply {
        admin.webhooks.clear(session: session)
        return AdminReply.json(.object([("cleared", .bool(true))]))
    }
}
