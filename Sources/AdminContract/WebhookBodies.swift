public import StubModel

/// One webhook sent and how it ended. Each wire member is its property here and one line of
/// `wire` (see `RequestRecord`).
public struct WebhookRecord: WireBody, Equatable {
    /// Increasing number, unique per server.
    public var sequence = 0
    /// When it ended (ISO 8601, UTC).
    public var time = ""
    /// The route whose answer sent it.
    public var route = ""
    /// The method it was sent with.
    public var method = ""
    /// The URL, its query's secrets hidden.
    public var url = ""
    /// Attempts made (retries included).
    public var attempts = 0
    /// The session of the request that caused it.
    public var session: String?
    /// The last answer's status.
    public var status: Int?
    /// Why it failed, when it did.
    public var error: String?

    /// The wire members in the order sent.
    public static let wire = WireTable<WebhookRecord>("a webhook stubd sent", [
        .member("sequence", \.sequence, "increasing, unique per server"),
        .member("time", \.time, "when it was sent (ISO 8601)"),
        .member("route", \.route, "the route that sent it"),
        .member("method", \.method, "the method it was sent with"),
        .member("url", \.url, "the URL, its query's secrets hidden"),
        .member("attempts", \.attempts, "tries made"),
        .member("session", \.session, "the session of the request that set it off"),
        .member("status", \.status, "the status it got"),
        .member("error", \.error, "why it failed"),
    ])

    /// An empty record, filled member by member.
    public init() {}
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
