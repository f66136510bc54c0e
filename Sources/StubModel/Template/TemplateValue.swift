import Foundation

/// One substitution of a template: a value read from the request or the route, or made anew
/// (a date, an id). The names follow WireMock's response templating, so a WireMock mapping's
/// `{{request.path.[1]}}` or `{{now format='yyyy-MM-dd'}}` means the same here.
public enum TemplateValue: Sendable, Hashable {
    /// `request.method`.
    case method
    /// `request.url`: path and query as sent.
    case url
    /// `request.path`: the path as sent.
    case path
    /// `request.path.[n]`, `request.pathSegments.[n]`: the n-th decoded segment (0-based).
    case pathSegment(Int)
    /// `request.path.name` (`urlPathTemplate`/`pathTemplate` parameter).
    case pathParameter(String)
    /// `request.query.name`: the first value of a query parameter (all of them where a list is
    /// wanted: `#each`, `join`, `size`).
    case query(String)
    /// `request.query.name.[n]`: its n-th value (0-based), or empty — WireMock's multi-valued form.
    case queryAt(String, Int)
    /// `request.headers.name` (any case).
    case header(String)
    /// `request.headers.name.[n]`: the n-th value of a header sent on several lines, or empty.
    case headerAt(String, Int)
    /// `request.cookies.name`.
    case cookie(String)
    /// `request.baseUrl` (`request.requestLine.baseUrl`): `scheme://host[:port]` as the request
    /// addressed this server (from `Host`; the port left out when it is the scheme's default).
    case baseURL
    /// `request.requestLine.scheme`: `http` or `https`.
    case scheme
    /// `request.requestLine.host`: the `Host` header's name part.
    case host
    /// `request.requestLine.port`: the `Host` header's port, else the scheme's default.
    case port
    /// `request.body`: the body as UTF-8 text.
    case body
    /// `jsonPath request.body '$.x'`: the first value the expression selects (JSON as text).
    case jsonPath(JSONPath)
    /// `graphql.operationName`: the GraphQL operation the request runs.
    case graphQLOperation
    /// `graphql.variables.NAME[.field…]`: one of its variables (JSON as text).
    case graphQLVariable([String])
    /// `route.name`.
    case routeName
    /// `session`: the request's `X-Stubd-Session`, or empty.
    case session
    /// `now [format='…'] [offset='-1 days'] [timezone='…']`.
    case now(NowFormat)
    /// `uuid` or `randomValue type='UUID'`.
    case uuid
    /// `counter`: 1, 2, 3… per route and session (reset with the session).
    case counter
    /// `saved.NAME`: a value a route saved for this session (`"save"`), or empty.
    case saved(String)
    /// `collection.NAME.count`: how many items a collection holds for this session.
    case collectionCount(String)
    /// `jsonPath collection.NAME '$[0].title'`: the first value the expression selects in the
    /// session's items of a collection.
    case collectionPath(String, JSONPath)
    /// `randomValue length=n [type='ALPHANUMERIC'|'ALPHABETIC'|'NUMERIC'|'HEXADECIMAL'] [uppercase=true]`.
    case random(length: Int, alphabet: String)

    /// Why a substitution does not parse.
    struct TemplateMessage: Error {
        let text: String
    }

    private static func fail(_ text: String) -> Result<TemplateValue, TemplateMessage> { .failure(TemplateMessage(text: text)) }

    /// What the supported names are, for problems.
    static let supported = "request.method, request.url, request.path, request.path.[n], request.baseUrl, request.requestLine.scheme/host/port, request.path.NAME, request.query.NAME, request.query.NAME.[n], request.headers.NAME, request.cookies.NAME, request.body, jsonPath request.body '$.x', route.name, session, graphql.operationName, graphql.variables.NAME, now, uuid, randomValue, counter, saved.NAME, collection.NAME.count, jsonPath collection.NAME '$…'"

    /// Parses the inside of `{{ … }}`.
    static func parse(_ inner: String) -> Result<TemplateValue, TemplateMessage> {
        let words = TemplateParser.words(inner.trimmingCharacters(in: .whitespaces))
        guard let head = words.first else { return fail("an empty {{}}; write a name such as {{request.path}}") }
        if head.hasPrefix("#") || head.hasPrefix("/") || head == "else" || head.hasPrefix(">") || head.hasPrefix("!") {
            return fail("block helpers, partials and comments ({{#if}}, {{#each}}, {{#assign}}, {{> …}}) are not supported: stubd templates substitute values only")
        }
        var options: [String: String] = [:]
        var positional: [String] = []
        for word in words.dropFirst() {
            if let equals = word.firstIndex(of: "="), !word.hasPrefix("'"), !word.hasPrefix("\"") {
                options[String(word[..<equals])] = unquote(String(word[word.index(after: equals)...]))
            } else {
                positional.append(unquote(word))
            }
        }
        switch head {
        case "now":
            var format = NowFormat()
            format.pattern = options["format"]
            format.timeZone = options["timezone"]
            if let offset = options["offset"] {
                guard let parsed = NowFormat.parseOffset(offset) else { return fail("offset '\(offset)': write an amount and a unit, e.g. '-1 days', '3 hours', '15 minutes'") }
                format.offsetSeconds = parsed.seconds
                format.offsetMonths = parsed.months
            }
            if let zone = format.timeZone, TimeZone(identifier: zone) == nil { return fail("timezone '\(zone)' is not a time zone name (e.g. UTC, Europe/Paris)") }
            return .success(.now(format))
        case "uuid":
            return .success(.uuid)
        case "counter":
            return .success(.counter)
        case "randomValue":
            let type = (options["type"] ?? "ALPHANUMERIC").uppercased()
            if type == "UUID" { return .success(.uuid) }
            guard let length = Int(options["length"] ?? "") , (1...4096).contains(length) else {
                return fail("randomValue needs length=1…4096 (and type='ALPHANUMERIC', 'ALPHABETIC', 'NUMERIC', 'HEXADECIMAL' or 'UUID')")
            }
            // Lower-case letters, as WireMock writes them (uppercase=true for capitals).
            let alphabets = ["ALPHANUMERIC": "abcdefghijklmnopqrstuvwxyz0123456789",
                             "ALPHABETIC": "abcdefghijklmnopqrstuvwxyz", "NUMERIC": "0123456789",
                             "HEXADECIMAL": "0123456789abcdef", "ALPHANUMERIC_AND_SYMBOLS": "abcdefghijklmnopqrstuvwxyz0123456789!#$%&*+-=?@^_"]
            guard var alphabet = alphabets[type] else { return fail("randomValue type '\(type)' is not one of \(alphabets.keys.sorted().joined(separator: ", ")), UUID") }
            if options["uppercase"] == "true" { alphabet = String(Set(alphabet.uppercased())).sorted().map(String.init).joined() }
            return .success(.random(length: length, alphabet: alphabet))
        case "jsonPath":
            guard positional.count == 2, positional[0] == "request.body" || positional[0].hasPrefix("collection.") else {
                return fail("write jsonPath request.body '$.field' or jsonPath collection.NAME '$[0].field'")
            }
            switch JSONPath.parse(positional[1]) {
            case .success(let path):
                if positional[0] == "request.body" { return .success(.jsonPath(path)) }
                return .success(.collectionPath(String(positional[0].dropFirst("collection.".count)), path))
            case .failure(let problem): return fail("jsonPath '\(positional[1])': \(problem.message)")
            }
        case "session": return .success(.session)
        case "graphql.operationName": return .success(.graphQLOperation)
        case "route.name": return .success(.routeName)
        default:
            guard positional.isEmpty && options.isEmpty else { return fail("\"\(head)\" takes no arguments; supported: \(supported)") }
            let parts = head.split(separator: ".").map(String.init)
            if parts.count == 2, parts[0] == "saved" { return .success(.saved(parts[1])) }
            if parts.count >= 3, parts[0] == "graphql", parts[1] == "variables" {
                return .success(.graphQLVariable(parts.dropFirst(2).map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }))
            }
            if parts.count == 3, parts[0] == "collection", parts[2] == "count" { return .success(.collectionCount(parts[1])) }
            return requestValue(head)
        }
    }

    /// `request.…` names, WireMock's spellings included (`request.requestLine.*`, `[n]`).
    private static func requestValue(_ name: String) -> Result<TemplateValue, TemplateMessage> {
        var parts = name.split(separator: ".").map { part -> String in
            var text = String(part)
            if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            return text
        }
        guard parts.first == "request" else { return fail("unknown name \"\(name)\"; supported: \(supported)") }
        parts.removeFirst()
        if parts.first == "requestLine" { parts.removeFirst() }
        // `request.query.q.[0]` or `.first`: the first value, which is what a plain name gives;
        // `.[n]` the n-th of a parameter or header sent several times.
        if parts.count == 3, ["query", "headers"].contains(parts[0]), parts[2] == "0" || parts[2] == "first" { parts.removeLast() }
        if parts.count == 3, let index = Int(parts[2]), index > 0 {
            if parts[0] == "query" { return .success(.queryAt(parts[1], index)) }
            if parts[0] == "headers" { return .success(.headerAt(parts[1].lowercased(), index)) }
        }
        switch (parts.first, parts.count) {
        case ("method"?, 1): return .success(.method)
        case ("url"?, 1): return .success(.url)
        case ("path"?, 1): return .success(.path)
        case ("body"?, 1): return .success(.body)
        case ("baseUrl"?, 1): return .success(.baseURL)
        case ("scheme"?, 1): return .success(.scheme)
        case ("host"?, 1): return .success(.host)
        case ("port"?, 1): return .success(.port)
        case ("path"?, 2), ("pathSegments"?, 2):
            if let index = Int(parts[1]), index >= 0 { return .success(.pathSegment(index)) }
            return parts[0] == "path" ? .success(.pathParameter(parts[1])) : fail("request.pathSegments takes an index, e.g. request.pathSegments.[1]")
        case ("query"?, 2): return .success(.query(parts[1]))
        case ("headers"?, 2), ("header"?, 2): return .success(.header(parts[1].lowercased()))
        case ("cookies"?, 2): return .success(.cookie(parts[1]))
        default: return fail("unknown name \"\(name)\"; supported: \(supported)")
        }
    }

    private static func unquote(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }
}

/// How `now` is written: a date pattern (Java/ICU letters: `yyyy-MM-dd'T'HH:mm:ss`), or ISO 8601
/// by default; an offset; a time zone (UTC by default).
public struct NowFormat: Sendable, Hashable {
    /// The date pattern, or nil for ISO 8601 with milliseconds; `epoch` and `unix` give
    /// milliseconds and seconds since 1970.
    public var pattern: String?
    /// Added seconds (from seconds, minutes, hours, days, weeks).
    public var offsetSeconds: Double = 0
    /// Added calendar months (from months, years).
    public var offsetMonths: Int = 0
    /// A time zone identifier.
    public var timeZone: String?

    /// The default: ISO 8601, now, UTC.
    public init() {}

    /// Calendar months an offset may move, either way (10,000 years).
    static let monthBound = 120_000

    /// `'-1 days'`, `'3 hours'`, `'1 years'`: seconds and calendar months to add, or nil.
    public static func parse(offset text: String) -> (seconds: Double, months: Int)? { parseOffset(text) }

    /// `'-1 days'`, `'3 hours'`, `'1 years'`. The amount may come from a request: months are held
    /// within ±10,000 years, never converted raw.
    static func parseOffset(_ text: String) -> (seconds: Double, months: Int)? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let amount = Double(parts[0]) else { return nil }
        let unit = parts[1].lowercased().hasSuffix("s") ? String(parts[1].lowercased().dropLast()) : parts[1].lowercased()
        switch unit {
        case "second": return (amount, 0)
        case "minute": return (amount * 60, 0)
        case "hour": return (amount * 3600, 0)
        case "day": return (amount * 86400, 0)
        case "week": return (amount * 604_800, 0)
        case "month": return (0, CheckedNumber.clamped(amount, to: -Self.monthBound...Self.monthBound))
        case "year": return (0, CheckedNumber.clamped(amount, to: -Self.monthBound / 12...Self.monthBound / 12) * 12)
        default: return nil
        }
    }
}
