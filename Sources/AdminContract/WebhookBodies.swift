public import StubModel

/// One webhook sent and how it ended.
public struct WebhookRecord: AdminBody {
    /// Increasing number, unique per server.
    public let sequence: Int
    /// When it ended (ISO 8601, UTC).
    public let time: String
    /// The route whose answer sent it.
    public let route: String
    /// The method it was sent with.
    public let method: String
    /// The URL, its query's secrets hidden.
    public let url: String
    /// Attempts made (retries included).
    public let attempts: Int
    /// The session of the request that caused it.
    public let session: String?
    /// The last answer's status, or why it failed.
    public let status: Int?
    /// Why it failed, when it did.
    public let error: String?

    /// A record of these values.
    public init(sequence: Int, time: String, route: String, method: String, url: String, attempts: Int, session: String?, status: Int?, error: String?) {
        (self.sequence, self.time, self.route, self.method, self.url) = (sequence, time, route, method, url)
        (self.attempts, self.session, self.status, self.error) = (attempts, session, status, error)
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        let fields = try JSONFields(json, usage: "expected a webhook record")
        sequence = try fields.int("sequence")
        time = try fields.string("time")
        route = try fields.string("route")
        method = try fields.string("method")
        url = try fields.string("url")
        attempts = try fields.int("attempts")
        session = try fields.optionalString("session")
        status = try fields.optionalInt("status")
        error = try fields.optionalString("error")
    }

    /// The body as the admin API sends it.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("sequence", .int(sequence)), ("time", .string(time)), ("route", .string(route)), ("method", .string(method)),
            ("url", .string(url)), ("attempts", .int(attempts)),
        ]
        if let session { members.append(("session", .string(session))) }
        if let status { members.append(("status", .int(status))) }
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}

/// `GET /__stubd/webhooks`.
public struct WebhookList: AdminBody {
    /// The webhooks sent, oldest first.
    public let webhooks: [WebhookRecord]

    /// These records.
    public init(_ webhooks: [WebhookRecord]) {
        self.webhooks = webhooks
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        webhooks = try JSONFields(json, usage: "expected the webhooks object").array("webhooks")
            .map { item throws(AdminBodyProblem) in try WebhookRecord(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("webhooks", .array(webhooks.map(\.json)))]) }
}
