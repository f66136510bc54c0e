import Foundation
import StubModel
import Synchronization
import StubdEngine

/// Renders a route's `ResponseTemplate` for one request: every substitution reads the request
/// (or the route, the session, the clock), JSON string values stay JSON strings, header values
/// lose any CR or LF (a value from the request can never split a header). Runs on the request's
/// loop; only templated routes call it.
struct TemplateRenderer {
    let request: IncomingRequest
    let route: Route
    let session: SessionID?
    let state: TemplateState
    /// Where `collection.NAME` reads a collection's items.
    let collections: any CollectionItemsSource

    /// One template string (a saved value).
    func render(_ text: TemplateText) -> String {
        var context = Context(request: request, route: route, session: session, state: state, collections: collections)
        return context.text(text)
    }

    /// The reply for `template`.
    func render(_ template: ResponseTemplate) -> PreparedReply {
        var context = Context(request: request, route: route, session: session, state: state, collections: collections)
        let headers = template.headers.map { header in
            // By scalar: "\r\n" is one Character, which a Character filter would keep.
            NameValue(header.name, String(String.UnicodeScalarView(context.text(header.value).unicodeScalars.filter { $0 != "\r" && $0 != "\n" })))
        }
        let body: [UInt8]
        switch template.body {
        case .bytes(let bytes): body = bytes
        case .text(let text): body = Array(context.text(text).utf8)
        case .json(let part): body = Array(JSONWriter.write(context.json(part), pretty: false).utf8)
        }
        return PreparedReply(status: template.status, headers: headers, body: body)
    }

    /// What one request offers its template, each part read at most once.
    private struct Context {
        let request: IncomingRequest
        let route: Route
        let session: SessionID?
        let state: TemplateState
        let collections: any CollectionItemsSource
        private var parsedBody: JSONValue??
        private var segments: [String]?

        init(request: IncomingRequest, route: Route, session: SessionID?, state: TemplateState, collections: any CollectionItemsSource) {
            self.request = request
            self.route = route
            self.session = session
            self.state = state
            self.collections = collections
        }

        private func collectionItems(_ name: String) -> [JSONValue]? {
            collections.collectionItems(named: name, session: session)
        }

        mutating func text(_ template: TemplateText) -> String {
            var out = ""
            for part in template.parts {
                switch part {
                case .literal(let text): out += text
                case .value(let value): out += self.value(value)
                }
            }
            return out
        }

        mutating func json(_ part: ResponseTemplate.JSONPart) -> JSONValue {
            switch part {
            case .constant(let value): return value
            case .string(let template): return .string(text(template))
            case .array(let items): return .array(items.map { json($0) })
            case .object(let members): return .object(members.map { ($0.key, json($0.value)) })
            }
        }

        mutating func value(_ value: TemplateValue) -> String {
            switch value {
            case .method: return request.method
            case .url: return request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
            case .path: return request.rawPath
            case .pathSegment(let index):
                let all = pathSegments()
                return all.indices.contains(index) ? all[index] : ""
            case .pathParameter(let name):
                guard case .template(let template) = route.fixture.request.path,
                      let index = template.segments.firstIndex(of: .parameter(name)) else { return "" }
                let all = pathSegments()
                return all.indices.contains(index) ? all[index] : ""
            case .query(let name):
                return FormCoding.decodePairs(request.rawQuery ?? "").first { $0.name == name }?.value ?? ""
            case .header(let name):
                return request.header(name) ?? ""
            case .cookie(let name):
                return NameValue.cookies(in: request.headers).first { $0.name == name }?.value ?? ""
            case .body: return String(decoding: request.body, as: UTF8.self)
            case .jsonPath(let path):
                guard let document = json(), let first = path.select(in: document).first else { return "" }
                if case .string(let text) = first { return text }
                return JSONWriter.write(first, pretty: false)
            case .routeName: return route.name
            case .session: return session?.rawValue ?? ""
            case .now(let format): return Clock.format(state.now(session: session), format)
            case .counter: return String(state.nextCount(route: route.id, session: session))
            case .saved(let name): return state.saved(name, session: session) ?? ""
            case .collectionCount(let name): return String(collectionItems(name)?.count ?? 0)
            case .collectionPath(let name, let path):
                guard let first = path.select(in: .array(collectionItems(name) ?? [])).first else { return "" }
                if case .string(let text) = first { return text }
                return JSONWriter.write(first, pretty: false)
            case .uuid:
                var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: state.random(session: session)) }
                bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
                bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
                let hex = bytes.map { String(format: "%02x", $0) }.joined()
                let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
                return parts.joined(separator: "-")
            case .random(let length, let alphabet):
                let characters = Array(alphabet)
                return String((0..<length).map { _ in characters[Int(state.random(session: session) % UInt64(characters.count))] })
            }
        }

        private mutating func pathSegments() -> [String] {
            if let segments { return segments }
            let made = PathSegments(raw: request.rawPath).segments
            segments = made
            return made
        }

        private mutating func json() -> JSONValue? {
            if let parsedBody { return parsedBody }
            let parsed = try? JSONParser.parse(request.body)
            parsedBody = .some(parsed)
            return parsed
        }
    }
}

/// Where templates read a collection's items (`{{collection.NAME.count}}`): the admin facade,
/// which knows the routes a session sees.
protocol CollectionItemsSource: AnyObject, Sendable {
    /// The session's items of the collection `name`, or nil when no route serves one.
    func collectionItems(named name: String, session: SessionID?) -> [JSONValue]?
}

/// `now`: dates written with a cached formatter per pattern and zone (making one costs more
/// than rendering a whole template).
enum Clock {
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    static func format(_ now: Date, _ format: NowFormat) -> String {
        var date = now.addingTimeInterval(format.offsetSeconds)
        let zone = TimeZone(identifier: format.timeZone ?? "UTC") ?? TimeZone(identifier: "UTC")!
        if format.offsetMonths != 0 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            date = calendar.date(byAdding: .month, value: format.offsetMonths, to: date) ?? date
        }
        switch format.pattern {
        case "epoch"?: return String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case "unix"?: return String(Int64(date.timeIntervalSince1970.rounded(.down)))
        default: break
        }
        let pattern = format.pattern ?? "yyyy-MM-dd'T'HH:mm:ss'Z'"
        let key = pattern + "|" + zone.identifier
        return formatters.withLock { cache in
            let formatter: DateFormatter
            if let cached = cache[key] {
                formatter = cached
            } else {
                formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone
                formatter.dateFormat = pattern
                cache[key] = formatter
            }
            return formatter.string(from: date)
        }
    }
}
