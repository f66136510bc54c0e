import Foundation
import StubModel
import StubdEngine

/// `/__stubd/requests`: the journal, filtered (`?method=&path=&route=&matched=`), counted for
/// verification, and cleared. With an `X-Stubd-Session` header only that session's requests.
struct RequestsAdmin {
    let admin: StubAdmin

    struct FilterError: Error {
        let message: String
    }

    static func query(_ pairs: [NameValue], session: SessionID?) -> Result<JournalQuery, FilterError> {
        var query = JournalQuery(session: session)
        for pair in pairs {
            switch pair.name {
            case "method": query.method = pair.value
            case "path": query.path = pair.value
            case "route": query.route = pair.value
            case "matched":
                guard let value = Bool(pair.value) else { return .failure(FilterError(message: "matched must be true or false, got \"\(pair.value)\"")) }
                query.matched = value
            default:
                return .failure(FilterError(message: "unknown filter \"\(pair.name)\"; use method, path (a trailing * matches a prefix), route or matched"))
            }
        }
        return .success(query)
    }

    func list(_ pairs: [NameValue], session: SessionID?) -> PreparedReply {
        switch Self.query(pairs, session: session) {
        case .failure(let failure): return AdminReply.error(failure.message, status: 400)
        case .success(let query):
            let entries = admin.requests(query)
            return AdminReply.json(.object([("count", AdminReply.number(entries.count)),
                                            ("requests", .array(entries.map { Self.json($0, redactor: admin.journal.redactor, bodyLimit: admin.journal.bodyLimit) }))]))
        }
    }

    func count(_ pairs: [NameValue], session: SessionID?) -> PreparedReply {
        switch Self.query(pairs, session: session) {
        case .failure(let failure): return AdminReply.error(failure.message, status: 400)
        case .success(let query): return AdminReply.json(.object([("count", AdminReply.number(admin.count(query)))]))
        }
    }

    func clear(session: SessionID?) -> PreparedReply {
        admin.clearRequests(session: session)
        return AdminReply.json(.object([("cleared", .bool(true))]))
    }

    static func json(_ entry: JournalEntry, redactor: Redactor = .off, bodyLimit: Int = 4096) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("sequence", AdminReply.number(entry.sequence)),
            ("time", .string(timestamp(entry.time))),
            ("method", .string(entry.method)),
            ("url", .string(entry.url)),
            ("path", .string(entry.path)),
        ]
        if let session = entry.session { members.append(("session", .string(session.rawValue))) }
        if let connection = entry.connection {
            members.append(("connection", AdminReply.number(connection.number)))
            members.append(("connectionRequest", AdminReply.number(connection.request)))
        }
        members.append(("headers", .array(entry.headers.map { .array([.string($0.name), .string($0.value)]) })))
        if let text = String(validating: entry.body, as: UTF8.self) {
            members.append(("body", .string(text)))
        } else {
            members.append(("bodyBase64", .string(Data(entry.body).base64EncodedString())))
        }
        members.append(("bodySize", AdminReply.number(entry.bodySize)))
        if entry.body.isEmpty && entry.bodySize > 0 {
            members.append(("bodyNote", .string("not kept: over \(RequestJournal.redactParseLimit / 1024) KiB and of a kind that may name secrets (JSON, form, multipart); --journal-secrets keeps its first bytes")))
        }
        members.append(("matched", .bool(entry.matched)))
        if let id = entry.routeID { members.append(("routeId", .string(id.description))) }
        if let name = entry.routeName { members.append(("route", .string(name))) }
        if let nearMiss = entry.nearMiss { members.append(("nearMiss", .string(nearMiss))) }
        if let status = entry.status { members.append(("status", AdminReply.number(status))) }
        if let fault = entry.fault { members.append(("fault", .string(fault.rawValue))) }
        members.append(("latencyMs", .number((entry.latency * 100_000).rounded() / 100)))
        if let response = entry.response { members.append(("response", Self.json(response, entry: entry, redactor: redactor, bodyLimit: bodyLimit))) }
        return .object(members)
    }

    /// Body bytes a miss's 404 shows however small the journal's body limit: enough for the
    /// near-miss report (three routes, each difference cut at 1,024 characters).
    static let missReportLimit = 16 * 1024

    /// The response as listed: status, headers and the first body bytes, secrets hidden as in
    /// the request.
    static func json(_ response: ExchangeResponse, entry: JournalEntry, redactor: Redactor, bodyLimit: Int) -> JSONValue {
        let contentType = response.headers.first { $0.name.equalsIgnoringCase("Content-Type") }?.value
        let limit = entry.nearMiss != nil && !entry.matched ? max(bodyLimit, missReportLimit) : bodyLimit
        var body = response.body(upTo: limit)
        if redactor.enabled {
            body = response.bodySize > limit && Redactor.mayNameSecrets(body, contentType: contentType) ? [] : redactor.body(body, contentType: contentType)
        }
        var members: [(key: String, value: JSONValue)] = [
            ("status", AdminReply.number(response.status)),
            ("headers", .array((redactor.enabled ? redactor.pairs(response.headers) : response.headers).map { .array([.string($0.name), .string($0.value)]) })),
        ]
        if let text = String(validating: body, as: UTF8.self) {
            members.append(("body", .string(text)))
        } else {
            members.append(("bodyBase64", .string(Data(body).base64EncodedString())))
        }
        members.append(("bodySize", AdminReply.number(response.bodySize)))
        return .object(members)
    }

    /// `2026-11-24T13:04:12.345Z`: ISO 8601 in UTC with milliseconds, computed (a formatter per
    /// entry cost tens of microseconds on the event stream's path).
    static func timestamp(_ date: Date) -> String {
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        var whole = totalMillis / 1000
        var millis = totalMillis % 1000
        if millis < 0 { millis += 1000; whole -= 1 }
        let time = CivilTime(unixSeconds: whole)
        let pad = CivilTime.padded
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2))T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)).\(pad(millis, 3))Z"
    }
}
