public import Foundation
public import StubModel
public import StubdEngine

/// One served request as the journal keeps it: the `Exchange` itself (or, for a request over the
/// journal's bounds, a copy cut to them) and its number. Nothing is copied field by field and
/// nothing is redacted when it is kept: secrets are hidden as the entry is read, by the
/// journal's redactor (`--journal-secrets` turns it off).
public struct JournalEntry: Sendable {
    /// Increasing number, unique per server.
    public let sequence: Int
    /// The exchange, as the observers saw it.
    public let exchange: Exchange
    /// What reading it hides.
    package let redactor: Redactor

    /// When the request arrived (wall clock).
    public var time: Date { exchange.arrival }
    /// The `X-Stubd-Session` it carried, if any.
    public var session: SessionID? { exchange.session }
    /// Whether it is a client's silent re-send of the previous request on its route, which got a
    /// fault that sends no byte.
    public var isResend: Bool { exchange.isResend }
    /// The connection it came on and its place there: a client's silent re-send shows up as the
    /// same request on a new connection.
    public var connection: ConnectionUse? { exchange.request.connection }
    /// Whether it came on an HTTP/2 stream.
    public var isHTTP2: Bool { exchange.request.isHTTP2 }
    /// The method.
    public var method: String { exchange.request.method }
    /// Path and query as sent (`/users/octocat?x=1`), secret query values hidden.
    public var url: String {
        let request = exchange.request
        return request.rawQuery.map { "\(request.rawPath)?\(redactor.query($0))" } ?? request.rawPath
    }
    /// `https://api.example.com` (with a port other than the scheme's) for a request that came
    /// through the forward proxy; nil on the direct ports and for a `CONNECT` (its target names it).
    public var server: String? {
        guard let arrival = exchange.request.proxied, !arrival.isConnect else { return nil }
        let host = arrival.host.contains(":") ? "[\(arrival.host)]" : arrival.host
        return "\(arrival.scheme)://\(host)" + (arrival.port == (arrival.scheme == "https" ? 443 : 80) ? "" : ":\(arrival.port)")
    }
    /// The decoded path (what `path=` filters compare).
    public var path: String { PathSegments(raw: exchange.request.rawPath).description }
    /// Request headers (at most `RequestJournal.headerLimit` bytes of them), secrets hidden.
    public var headers: [NameValue] { redactor.pairs(exchange.request.headers) }
    /// The first `bodyLimit` bytes of the body, secret fields hidden.
    public var body: [UInt8] {
        let request = exchange.request
        return redactor.body(request.body, contentType: request.header("Content-Type"))
    }
    /// The full body size.
    public var bodySize: Int { exchange.requestBodySize }
    /// The matched route's id; nil for a miss.
    public var routeID: RouteID? { exchange.route?.id }
    /// The matched route's name; nil for a miss.
    public var routeName: String? { exchange.route?.name }
    /// For a miss: the closest route and what differed (or where it was forwarded, or why not).
    public var nearMiss: String? {
        switch exchange.resolution {
        case .miss(let closest): return closest
        case .forwarded(let upstream): return "proxied to \(upstream)"
        case .notForwarded(let reason): return "not forwarded: \(reason)"
        case .route, .admin, .preflight, .arriving: return nil
        }
    }
    /// The status sent, or nil for a fault.
    public var status: Int? { exchange.fault == nil ? exchange.response?.status : nil }
    /// The fault produced, if any.
    public var fault: Fault? { exchange.fault }
    /// Whether the fault, a fault step, went as a response instead of no byte (`Exchange.faultSentAsResponse`).
    public var faultSentAsResponse: Bool { exchange.faultSentAsResponse }
    /// Where that fault step failed the client: in the body, or before the status.
    public var faultSending: FaultSending { exchange.faultSending }
    /// Seconds from arrival to the reply (or fault), delays included.
    public var latency: Double { exchange.latencySeconds }
    /// The response sent (nil for a fault): a route's shared answer by reference, any other at
    /// most `ExchangeResponse.bodyLimit` body bytes.
    public var response: ExchangeResponse? { exchange.response }
    /// Whether a route matched.
    public var matched: Bool { exchange.route != nil }
}

/// Which journal entries to return or count. Every field left nil matches everything.
public struct JournalQuery: Sendable {
    /// Exact method.
    public var method: String?
    /// Decoded path; a trailing `*` matches by prefix.
    public var path: String?
    /// Matched route name or id.
    public var route: String?
    /// Only matched (true) or only missed (false) requests.
    public var matched: Bool?
    /// Only this session's requests.
    public var session: SessionID?

    /// A query; nil fields match everything.
    public init(method: String? = nil, path: String? = nil, route: String? = nil, matched: Bool? = nil, session: SessionID? = nil) {
        self.method = method
        self.path = path
        self.route = route
        self.matched = matched
        self.session = session
    }

    func accepts(_ entry: JournalEntry) -> Bool {
        if let method, entry.method != method { return false }
        if let path {
            if path.hasSuffix("*") {
                if !entry.path.hasPrefix(String(path.dropLast())) { return false }
            } else if entry.path != path {
                return false
            }
        }
        if let route, entry.routeName != route && entry.routeID?.description != route { return false }
        if let matched, entry.matched != matched { return false }
        if let session, entry.session != session { return false }
        return true
    }
}
