public import AdminContract
public import Foundation
import StubModel
public import StubServer
import StubdEngine

/// `/__stubd/requests`: the journal, filtered (`?method=&path=&route=&matched=`), counted for
/// verification, and cleared. With an `X-Stubd-Session` header only that session's requests.
/// Entries are read through the journal's redactor: secrets are hidden here, as they leave.
public struct RequestsAdmin {
    let state: SessionStore

    static func query(_ pairs: [NameValue], session: SessionID?) throws(AdminRefusal) -> JournalQuery {
        var query = JournalQuery(session: session)
        for pair in pairs {
            switch pair.name {
            case "method": query.method = pair.value
            case "path": query.path = pair.value
            case "route": query.route = pair.value
            case "matched":
                guard let value = Bool(pair.value) else { throw AdminRefusal("matched must be true or false, got \"\(pair.value)\"") }
                query.matched = value
            default:
                throw AdminRefusal("unknown filter \"\(pair.name)\"; use method, path (a trailing * matches a prefix), route or matched")
            }
        }
        return query
    }

    func list(_ pairs: [NameValue], session: SessionID?) throws(AdminRefusal) -> RequestList {
        let journal = state.journal
        return RequestList(state.requests(try Self.query(pairs, session: session)).map { Self.record($0, bodyLimit: journal.bodyLimit) })
    }

    func count(_ pairs: [NameValue], session: SessionID?) throws(AdminRefusal) -> RequestCount {
        RequestCount(state.count(try Self.query(pairs, session: session)))
    }

    func clear(session: SessionID?) -> Cleared {
        state.clearRequests(session: session)
        return Cleared()
    }

    /// One journal entry as the admin API lists it (and the dashboard's event stream sends it).
    public static func record(_ entry: JournalEntry, bodyLimit: Int = 4096) -> RequestRecord {
        let body = entry.body
        let text = String(validating: body, as: UTF8.self)
        let note = body.isEmpty && entry.bodySize > 0
            ? "not kept: over \(RequestJournal.redactParseLimit / 1024) KiB and of a kind that may name secrets (JSON, form, multipart); --journal-secrets keeps its first bytes"
            : nil
        var record = RequestRecord()
        record.sequence = entry.sequence
        record.time = timestamp(entry.time)
        record.method = entry.method
        record.url = entry.url
        record.path = entry.path
        record.server = entry.server
        record.session = entry.session?.rawValue
        record.connection = entry.connection?.number
        record.connectionRequest = entry.connection?.request
        record.protocol = entry.isHTTP2 ? "h2" : nil
        record.headers = entry.headers
        record.body = text
        record.bodyBase64 = text == nil ? Data(body).base64EncodedString() : nil
        record.bodySize = entry.bodySize
        record.bodyNote = note
        record.matched = entry.matched
        record.routeID = entry.routeID?.description
        record.route = entry.routeName
        record.nearMiss = entry.nearMiss
        record.status = entry.status
        record.fault = entry.fault?.rawValue
        record.faultSentAs = !entry.faultSentAsResponse ? nil : entry.faultSending == .beforeStatus ? RequestRecord.beforeStatus : RequestRecord.cutShort
        record.latencyMs = (entry.latency * 100_000).rounded() / 100
        record.response = entry.response.map { json($0, entry: entry, bodyLimit: bodyLimit) }
        record.resend = entry.isResend
        return record
    }

    /// Body bytes a miss's 404 shows however small the journal's body limit: enough for the
    /// near-miss report (three routes, each difference cut at 1,024 characters).
    static let missReportLimit = 16 * 1024

    /// The response as listed: status, headers and the first body bytes, secrets hidden as in
    /// the request.
    static func json(_ response: ExchangeResponse, entry: JournalEntry, bodyLimit: Int) -> JSONValue {
        let redactor = entry.redactor
        let contentType = response.headers.first { $0.name.equalsIgnoringCase("Content-Type") }?.value
        let limit = entry.nearMiss != nil && !entry.matched ? max(bodyLimit, missReportLimit) : bodyLimit
        var body = response.body(upTo: limit)
        if redactor.enabled {
            body = response.bodySize > limit && Redactor.mayNameSecrets(body, contentType: contentType) ? [] : redactor.body(body, contentType: contentType)
        }
        var members: [(key: String, value: JSONValue)] = [
            ("status", .int(response.status)),
            ("headers", .array((redactor.enabled ? redactor.pairs(response.headers) : response.headers).map { .array([.string($0.name), .string($0.value)]) })),
        ]
        if let text = String(validating: body, as: UTF8.self) {
            members.append(("body", .string(text)))
        } else {
            members.append(("bodyBase64", .string(Data(body).base64EncodedString())))
        }
        members.append(("bodySize", .int(response.bodySize)))
        return .object(members)
    }

    /// `2026-11-24T13:04:12.345Z`: ISO 8601 in UTC with milliseconds, computed (a formatter per
    /// entry cost tens of microseconds on the event stream's path).
    public static func timestamp(_ date: Date) -> String {
        let totalMillis = Int((date.timeIntervalSince1970 * 1000).rounded())
        var whole = totalMillis / 1000
        var millis = totalMillis % 1000
        if millis < 0 { millis += 1000; whole -= 1 }
        let time = CivilTime(unixSeconds: whole)
        let pad = CivilTime.padded
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2))T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)).\(pad(millis, 3))Z"
    }
}
