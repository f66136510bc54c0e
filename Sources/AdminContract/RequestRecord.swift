public import StubModel

/// One request as the journal lists it (secrets hidden) — what the client sent, what stubd
/// answered, and the facts of its arrival in fields of their own. Each wire member is its
/// property here and one line of `wire`; the reader, the writer, the schema and the JavaScript
/// kit's declaration follow from that line (`packaging/js-declarations.py`).
public struct RequestRecord: WireBody, Equatable {
    /// Its number in the journal.
    public var sequence = 0
    /// When it arrived: `2026-11-24T13:04:12.345Z`.
    public var time = ""
    /// The method as sent.
    public var method = ""
    /// The target as sent: path and query, percent-encoded.
    public var url = ""
    /// The path, percent-decoded.
    public var path = ""
    /// The scheme and host it was for, when it came through the forward proxy
    /// (`https://api.example.com`); absent on the direct ports.
    public var server: String?
    /// Its session (`X-Stubd-Session`, proxy credentials or a session's proxy port).
    public var session: String?
    /// The connection it came on.
    public var connection: Int?
    /// Which request of that connection it was (1: the first).
    public var connectionRequest: Int?
    /// `"h2"` for a request that came on an HTTP/2 stream (absent: HTTP/1.x); its connection
    /// numbers its streams as `connectionRequest`.
    public var `protocol`: String?
    /// Headers in order, as the client sent them.
    public var headers: [NameValue] = []
    /// The body as text (possibly cut), when it is UTF-8.
    public var body: String?
    /// The body as base64, when it is not UTF-8 text.
    public var bodyBase64: String?
    /// The body's whole size in bytes (the shown body may be cut).
    public var bodySize = 0
    /// Why no body is shown.
    public var bodyNote: String?
    /// Whether a route answered.
    public var matched = false
    /// The id of the route that answered.
    public var routeID: String?
    /// The name of the route that answered.
    public var route: String?
    /// For a miss, the closest route and why it missed — or, for a miss forwarded to the upstream
    /// (`--proxy-unmatched`, a recording), `proxied to <upstream>`.
    public var nearMiss: String?
    /// The status sent.
    public var status: Int?
    /// The fault sent instead of a response (`reset`, `empty`, …).
    public var fault: String?
    /// How a fault that sends no byte was sent when not as written, so a step is a response no
    /// client re-sends: `"beforeStatus"` for a sequence or scenario step (a 502 head with two
    /// lengths: the client fails before a status), or `"cutShort"` for one of a route with
    /// `"faultSteps": "inBody"` (a 200 head, then the body cut).
    public var faultSentAs: String?
    /// Milliseconds from arrival to the reply.
    public var latencyMs = 0.0
    /// The response sent: status, headers, the first body bytes (as text or base64), the size.
    public var response: JSONValue?
    /// True when it is the client's silent re-send of the previous request on its route, which
    /// got a fault that sends no byte.
    public var resend = false

    /// The wire members in the order sent: the reader, the writer and the schema (`WireBody`). A
    /// new member is its property above and one line here.
    public static let wire = WireTable<RequestRecord>("a request stubd received and what it answered", [
        .member("sequence", \.sequence, "its number in the journal"),
        .member("time", \.time, "when it arrived (ISO 8601, UTC)"),
        .member("method", \.method, "the method as sent"),
        .member("url", \.url, "path and query as sent"),
        .member("path", \.path, "the path, percent-decoded"),
        .member("server", \.server, "scheme and host, for a request through the forward proxy"),
        .member("session", \.session, "its session: X-Stubd-Session, proxy credentials or a session's proxy port"),
        .member("connection", \.connection, "the connection it came on"),
        .member("connectionRequest", \.connectionRequest, "which request of that connection it was (1: the first)"),
        .member("protocol", \.protocol, "h2 for a request on an HTTP/2 stream (absent: HTTP/1.x)"),
        .member("headers", \.headers, "headers in order, as the client sent them"),
        .member("body", \.body, "the body as text (possibly cut)"),
        .member("bodyBase64", \.bodyBase64, "the body as base64, when it is not UTF-8 text"),
        .member("bodySize", \.bodySize, "the whole body's size in bytes"),
        .member("bodyNote", \.bodyNote, "why no body is shown"),
        .member("matched", \.matched, "whether a route answered"),
        .member("routeId", \.routeID, "the id of the route that answered"),
        .member("route", \.route, "the name of the route that answered"),
        .member("nearMiss", \.nearMiss, "for a miss: the closest route and why it missed"),
        .member("status", \.status, "the status sent"),
        .member("fault", \.fault, "the fault sent instead of a response"),
        .member("faultSentAs", \.faultSentAs, "beforeStatus: a fault step sent as a 502 head with two lengths, failing before the status; cutShort: one of an inBody route, sent as a 200 head with its body cut"),
        .member("latencyMs", \.latencyMs, "milliseconds from arrival to the reply"),
        .member("response", \.response, "the response sent: status, headers, the first body bytes, the size"),
        .flag("resend", \.resend, "a client's silent re-send after a fault that sent no byte (not counted)"),
    ])

    /// Whether the miss was forwarded to the upstream and answered from there (a recording's).
    public var forwarded: Bool { !matched && nearMiss?.hasPrefix(Self.forwardedPrefix) == true }
    /// How `nearMiss` begins for a forwarded miss.
    public static let forwardedPrefix = "proxied to "
    /// The `faultSentAs` of a fault step of a route with `"faultSteps": "inBody"`: a 200 head, the body cut.
    public static let cutShort = "cutShort"
    /// The `faultSentAs` of a fault step placed as by default, failing before the status.
    public static let beforeStatus = "beforeStatus"

    /// An empty record, filled member by member (the server's journal, a test).
    public init() {}
}

/// `GET /__stubd/requests`.
public struct RequestList: AdminBody {
    /// Oldest first.
    public let requests: [RequestRecord]

    /// These records.
    public init(_ requests: [RequestRecord]) {
        self.requests = requests
    }

    /// Reads the body from its JSON; a missing or mistyped field is refused naming it (`AdminBodyProblem`).
    public init(json: JSONValue) throws(AdminBodyProblem) {
        requests = try JSONFields(json, usage: "expected the requests object").array("requests")
            .map { item throws(AdminBodyProblem) in try RequestRecord(json: item) }
    }

    /// The body as the admin API sends it.
    public var json: JSONValue { .object([("count", .int(requests.count)), ("requests", .array(requests.map(\.json)))]) }
}

