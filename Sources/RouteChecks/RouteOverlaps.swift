import Foundation
import StubModel
import StubdEngine
public import StubServer

/// Routes that one request reaches alike — the same priority and nothing else to rank them
/// (path kind, shape, constraints), so only their order in the files decides — found by asking
/// each route's own request: a *witness* built from its pattern (the literal path, a template's
/// parameters filled, its query pairs, headers, cookies, host, body, GraphQL operation), kept
/// only when its own route accepts it, then offered to every other route of the method. So
/// overlaps through regular expressions, templates, query, header and body matchers are found,
/// each named with the request that reaches both. A check above the serving core, run once when
/// fixtures load (`stubd check`, `stubd serve`), never per request. The rivals offered are only
/// those an `OverlapIndex` says could accept the witness, so the check is linear in the routes
/// however many share one path.
public enum RouteOverlaps {
    /// One warning per pair of routes in `table` a single request reaches alike.
    public static func warnings(_ table: RouteTable, limit: Int = 50) -> [String] {
        var warnings: [String] = []
        var reported = Set<[Int]>()
        let routes = table.routes
        let index = OverlapIndex(routes)
        for (position, route) in routes.enumerated() {
            guard warnings.count < limit, let alone = Self.witness(for: route.fixture) else { continue }
            let method = route.fixture.request.method
            let literal = index.literalRivals(of: position, route: route) ?? table.literalCandidates(for: alone, method: method)
            let wild = index.wildRivals(of: position, route: route) ?? table.patternCandidates(for: alone, method: method)
            for other in Set(literal + wild).sorted() where other != position {
                let rival = routes[other]
                // The route's own request, with what the rival also asks for where the route is silent.
                guard Self.tied(route, rival), let witness = Self.witness(for: route.fixture, plus: rival.fixture) else { continue }
                guard table.accepts(route, witness), table.accepts(rival, witness) else { continue }
                let pair = [min(position, other), max(position, other)]
                guard reported.insert(pair).inserted else { continue }
                let (first, second) = route.order < rival.order ? (route, rival) : (rival, route)
                let target = witness.rawPath + (witness.rawQuery.map { "?" + $0 } ?? "")
                warnings.append("\(second.fixture) and \(first.fixture) both answer \(method) \(target)\(Self.extra(witness)) at priority \(route.fixture.priority); "
                                + "only their order decides (\(first.fixture.name) answers) — give one a \"priority\", or make their requests differ")
                if warnings.count >= limit { break }
            }
        }
        return warnings
    }

    /// Nothing but file order ranks them, and a scenario cannot keep them apart.
    private static func tied(_ a: Route, _ b: Route) -> Bool {
        let left = a.precedence, right = b.precedence
        guard left.priority == right.priority, left.pathKind == right.pathKind, left.shape == right.shape,
              left.specificity == right.specificity else { return false }
        if let x = a.fixture.scenario, let y = b.fixture.scenario, x.name == y.name, x.requiredState != y.requiredState { return false }
        return true
    }

    /// The headers and body a witness carries, for the warning.
    private static func extra(_ witness: IncomingRequest) -> String {
        var parts: [String] = []
        let shown = witness.headers.filter { $0.name.lowercased() != "content-type" }
        if !shown.isEmpty { parts.append("with " + shown.map { "\($0.name): \($0.value)" }.joined(separator: ", ")) }
        if !witness.body.isEmpty { parts.append("body " + String(String(decoding: witness.body.prefix(80), as: UTF8.self))) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    /// A request the pattern asks for, or nil when it cannot be built (a regular-expression path).
    static func witness(for fixture: Fixture, plus other: Fixture? = nil) -> IncomingRequest? {
        var pattern = fixture.request
        if let extra = other?.request {
            // What the other route asks for, where this one names nothing.
            let queryNames = Set(pattern.query.names)
            pattern.query.pairs += extra.query.pairs.filter { !queryNames.contains($0.name) }
            pattern.query.present += extra.query.present.filter { !queryNames.contains($0) }
            pattern.query.matches += extra.query.matches.filter { !queryNames.contains($0.name) }
            let headerNames = Set((pattern.headers.map(\.name) + pattern.headerMatches.map(\.name)).map { $0.lowercased() })
            let cookieNames = Set(pattern.cookieMatches.map(\.name))
            for part in extra.parts {
                switch part {
                case .header(let header) where !headerNames.contains(header.name.lowercased()): pattern.add(part)
                case .headerMatch(let header) where !headerNames.contains(header.name.lowercased()): pattern.add(part)
                case .cookie(let cookie) where !cookieNames.contains(cookie.name): pattern.add(part)
                case .body where pattern.body.match == .any, .host where pattern.host == nil: pattern.add(part)
                default: break
                }
            }
            if let theirs = extra.graphQL {
                var merged = pattern.graphQL ?? GraphQLPattern()
                merged.operationName = merged.operationName ?? theirs.operationName
                merged.persistedQueryHash = merged.persistedQueryHash ?? theirs.persistedQueryHash
                let named = Set(merged.variables.map(\.name))
                merged.variables += theirs.variables.filter { !named.contains($0.name) }
                pattern.graphQL = merged
            }
        }
        let path: String
        switch pattern.path {
        case .literal(let segments): path = pattern.pathExact ?? segments.wireForm
        case .template(let template):
            path = "/" + template.segments.map { segment -> String in
                switch segment {
                case .literal(let text): return Self.encode(text)
                case .parameter: return "w1"
                }
            }.joined(separator: "/") + (template.trailingSlash ? "/" : "")
        case .regex(let expression):
            guard let sample = sample(regex: expression) else { return nil }
            path = sample
        case .urlRegex(let expression):
            // A query in the pattern stays in the sample: split it off as the request's query.
            guard let sample = sample(regex: expression) else { return nil }
            let parts = sample.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            path = String(parts[0])
            if parts.count > 1 { pattern.query.pairs = FormCoding.decodePairs(String(parts[1])) + pattern.query.pairs }
        }
        var query = pattern.query.pairs
        query += pattern.query.present.map { NameValue($0, "w1") }
        for match in pattern.query.matches {
            guard let value = sample(match.match) else { continue }
            query.append(NameValue(match.name, value))
        }
        var headers = pattern.headers
        for match in pattern.headerMatches {
            guard let value = sample(match.match) else { continue }
            headers.append(NameValue(match.name, value))
        }
        let cookies = pattern.cookieMatches.compactMap { match in sample(match.match).map { "\(match.name)=\($0)" } }
        if !cookies.isEmpty { headers.append(NameValue("Cookie", cookies.joined(separator: "; "))) }
        if let host = pattern.host { headers.append(NameValue("Host", host)) }
        var body: [UInt8] = []
        switch pattern.body.match {
        case .json(let value):
            body = Array(JSONWriter.write(value, pretty: false).utf8)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) { headers.append(NameValue("Content-Type", "application/json")) }
        case .form(let pairs):
            body = Array(Self.encode(pairs).utf8)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) { headers.append(NameValue("Content-Type", "application/x-www-form-urlencoded")) }
        case .bytes(let bytes): body = bytes
        case .contains(let text): body = Array(text.utf8)
        default: break
        }
        if let graphQL = pattern.graphQL, body.isEmpty {
            var members: [(key: String, value: JSONValue)] = [("query", .string("query \(graphQL.operationName ?? "Witness") { w }"))]
            if let name = graphQL.operationName { members.append(("operationName", .string(name))) }
            members.append(("variables", .object(graphQL.variables.map { ($0.name, $0.value) })))
            if let hash = graphQL.persistedQueryHash {
                members.append(("extensions", .object([("persistedQuery", .object([("version", .number(1)), ("sha256Hash", .string(hash))]))])))
            }
            body = Array(JSONWriter.write(.object(members), pretty: false).utf8)
            headers.append(NameValue("Content-Type", "application/json"))
        }
        let rawQuery = query.isEmpty ? nil : Self.encode(query)
        return IncomingRequest(method: pattern.method, rawPath: path, rawQuery: rawQuery, headers: headers, body: body)
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private static func encode(_ pairs: [NameValue]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    /// A path a regular expression as suites write them accepts (`/api/users/[0-9]+`,
    /// `/files/.*\\.json`, `(?:/v1)?/search\\?q=[a-z]+`): literal text kept, escapes unescaped,
    /// `.*` `.+` `[^/]+` `\\w+` become `w1`, digit classes `1`, letter classes `a`, optional groups
    /// left out; nil for anything else (alternation, backreferences, lookaround). The route then
    /// checks the sample itself, so a wrong guess is never reported.
    static func sample(regex: String) -> String? {
        var out = ""
        var characters = Array(regex)
        if characters.first == "^" { characters.removeFirst() }
        if characters.last == "$", characters.dropLast().last != "\\" { characters.removeLast() }
        var index = 0
        func quantifier() {
            // What follows a class or a wildcard: one more (`+`), any (`*`), optional (`?`), counts.
            guard index < characters.count else { return }
            if "+*?".contains(characters[index]) { index += 1; return }
            if characters[index] == "{", let close = characters[index...].firstIndex(of: "}") { index = close + 1 }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else { return nil }
                let next = characters[index + 1]
                index += 2
                switch next {
                case "d": out += "1"; quantifier()
                case "w": out += "w1"; quantifier()
                case "s": out += "%20"; quantifier()
                case "b", "B", "A", "z", "Z": break
                default:
                    guard !next.isLetter, !next.isNumber else { return nil }
                    out.append(next)
                }
            case ".":
                index += 1
                out += "w1"
                quantifier()
            case "[":
                guard let close = characters[(index + 1)...].firstIndex(of: "]") else { return nil }
                let set = String(characters[(index + 1)..<close])
                index = close + 1
                if set.hasPrefix("^") { out += "w1" } else if set.contains("0-9") || set == "\\d" { out += "1" } else if set.contains("a-z") || set.contains("A-Z") { out += "a" } else if let first = set.first, first != "\\" { out.append(first) } else { return nil }
                quantifier()
            case "(":
                // A group: optional ones are left out, others read through; no alternation.
                guard let close = characters[index...].firstIndex(of: ")") else { return nil }
                let inner = String(characters[(index + 1)..<close]).replacingOccurrences(of: "?:", with: "")
                guard !inner.contains("|"), !inner.contains("(") else { return nil }
                index = close + 1
                if index < characters.count, characters[index] == "?" || characters[index] == "*" {
                    index += 1
                } else {
                    guard let sampled = sample(regex: inner) else { return nil }
                    out += sampled
                    quantifier()
                }
            case "|", ")", "*", "+", "?", "{", "$", "^":
                return nil
            default:
                index += 1
                out.append(character)
            }
        }
        return out.hasPrefix("/") ? out : nil
    }

    /// A value a matcher accepts, when one is plain to see.
    private static func sample(_ match: ValueMatch) -> String? {
        switch match {
        case .equalTo(let value, _): return value
        case .contains(let text): return text
        default: return nil
        }
    }
}
