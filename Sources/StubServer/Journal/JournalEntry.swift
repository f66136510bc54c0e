import Foundation
import StubModel
import StubdEngine

/// One served request as the journal keeps it: bounded in size whatever the client sent.
///
/// Immutable, so shared by reference: the ring's slot, a listener and a query's result hold the
/// same entry (a struct of these seventeen fields cost a retain and a release of each at every
/// copy, on the serving path).
public final class JournalEntry: Sendable {
    /// Increasing number, unique per server.
    public let sequence: Int
    /// When the request arrived (wall clock).
    public let time: Date
    /// The `X-Stubd-Session` it carried, if any.
    public let session: SessionID?
    /// The connection it came on and its place there: a client's silent re-send shows up as the
    /// same request on a new connection.
    public let connection: ConnectionUse?
    /// The method.
    public let method: String
    /// The path as sent.
    let rawPath: String
    /// The query as sent, if any.
    let rawQuery: String?

    /// Path and query as sent (`/users/octocat?x=1`).
    public var url: String { rawQuery.map { "\(rawPath)?\($0)" } ?? rawPath }
    /// The decoded path (what `path=` filters compare).
    public var path: String { PathSegments(raw: rawPath).description }
    /// Request headers, at most `RequestJournal.headerLimit` bytes of them.
    public let headers: [NameValue]
    /// The first `bodyLimit` bytes of the body.
    public let body: [UInt8]
    /// The full body size.
    public let bodySize: Int
    /// The matched route's id; nil for a miss.
    public let routeID: RouteID?
    /// The matched route's name; nil for a miss.
    public let routeName: String?
    /// For a miss: the closest route and what differed.
    public let nearMiss: String?
    /// The status sent, or nil for a fault.
    public let status: Int?
    /// The fault produced, if any.
    public let fault: Fault?
    /// Seconds from arrival to the reply (or fault), delays included.
    public let latency: Double
    /// The response sent (nil for a fault): a route's shared answer by reference, any other at
    /// most `ExchangeResponse.bodyLimit` body bytes.
    public let response: ExchangeResponse?

    init(sequence: Int, time: Date, session: SessionID?, connection: ConnectionUse?, method: String, rawPath: String, rawQuery: String?,
         headers: [NameValue], body: [UInt8], bodySize: Int, routeID: RouteID?, routeName: String?, nearMiss: String?,
         status: Int?, fault: Fault?, latency: Double, response: ExchangeResponse?) {
        self.sequence = sequence
        self.time = time
        self.session = session
        self.connection = connection
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
        self.routeID = routeID
        self.routeName = routeName
        self.nearMiss = nearMiss
        self.status = status
        self.fault = fault
        self.latency = latency
        self.response = response
    }

    /// Whether a route matched.
    public var matched: Bool { routeID != nil }

    /// This entry with secret header, query, form and JSON values replaced (the near-miss text
    /// was redacted when it was written).
    func redacted(by redactor: Redactor) -> JournalEntry {
        guard redactor.enabled else { return self }
        let contentType = headers.first { $0.name.equalsIgnoringCase("Content-Type") }?.value
        return JournalEntry(sequence: sequence, time: time, session: session, connection: connection, method: method,
                            rawPath: rawPath, rawQuery: rawQuery.map(redactor.query), headers: redactor.pairs(headers),
                            body: redactor.body(body, contentType: contentType), bodySize: bodySize, routeID: routeID,
                            routeName: routeName, nearMiss: nearMiss, status: status, fault: fault, latency: latency,
                            response: response)
    }
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
