import Foundation
import StubdSystem
import StubModel

// The request half of a route: method, path, query, headers, GraphQL and body patterns, each
// problem named by its field path (FixtureReader.swift reads the rest of a fixture file).
extension FixtureReader {
    /// The request pattern, or nil with every problem added to `problems`: method, path, query,
    /// headers and body are checked independently.
    func readRequest(_ value: JSONValue, at field: String, _ problems: Problems) -> RequestPattern? {
        let request = problems.check { () throws(FixtureError) in
            try object(value, at: field, allowed: FixtureField.keys(of: .request))
        }
        guard let request else { return nil }
        let method = problems.check { () throws(FixtureError) -> String in
            guard let method = try string(request["method"], at: join(field, "method")) else {
                throw fail(join(field, "method"), "missing; give the HTTP method, e.g. \"GET\"")
            }
            guard !method.isEmpty, method.utf8.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == 45 }) else {
                throw fail(join(field, "method"), "\"\(method)\" is not an HTTP method; use upper case, e.g. \"GET\" or \"POST\"")
            }
            return method
        }
        let path = problems.check { () throws(FixtureError) in try readPath(request, at: field) }
        let query = problems.check { () throws(FixtureError) in try readQuery(request["query"], at: join(field, "query")) }
        let host = problems.check { () throws(FixtureError) -> String? in
            guard let host = try string(request["host"], at: join(field, "host")) else { return nil }
            guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: ":") }) else {
                throw fail(join(field, "host"), "\"\(host)\" is not a host name; give the server's name only, e.g. \"api.example.com\" (no scheme, port or path)")
            }
            guard !host.contains("*") else {
                throw fail(join(field, "host"), "\"\(host)\": host wildcards are not matched; give each server's name in a route of its own, "
                           + "or leave \"host\" out so the route answers any host")
            }
            // As every request's host is read (`b.example.com.` is `b.example.com`).
            return HostName.normalized(host) ?? host.lowercased()
        }
        let headers = problems.check { () throws(FixtureError) in try readMatchedPairs(request["headers"], at: join(field, "headers")) }
        let cookies = problems.check { () throws(FixtureError) in try readMatchedPairs(request["cookies"], at: join(field, "cookies")) }
        let body = problems.check { () throws(FixtureError) in try readRequestBody(request["body"], at: join(field, "body")) }
        let anyOtherQuery = problems.check { () throws(FixtureError) -> Bool in
            guard let value = request["anyOtherQuery"] else { return false }
            guard case .bool(let flag) = value else { throw fail(join(field, "anyOtherQuery"), "expected true or false") }
            return flag
        }
        let graphQL = problems.check { () throws(FixtureError) in try readGraphQL(request["graphql"], at: join(field, "graphql")) }
        guard let method, let path, var query, let headers, let cookies, let body, let host, let anyOtherQuery, let graphQL else { return nil }
        // A urlPattern covers the query itself: the query pairs are not compared on their own.
        // A GraphQL GET carries its operation in the query: other pairs are allowed unless listed.
        query.othersAllowed = path.coversQuery || anyOtherQuery || (graphQL.pattern != nil && request["query"] == nil)
        var pattern = RequestPattern(method: method, path: path, parts: [.query(query), .body(body)]
                                     + headers.pairs.map { .header(NameValue($0.name.lowercased(), $0.value)) }
                                     + headers.matches.map { .headerMatch(NamedMatch($0.name.lowercased(), $0.match)) }
                                     + cookies.pairs.map { .cookie(NamedMatch($0.name, .equalTo($0.value, caseInsensitive: false))) }
                                     + cookies.matches.map { .cookie($0) })
        pattern.host = host
        pattern.graphQL = graphQL.pattern
        if let exact = request["pathExact"] {
            guard case .bool(let on) = exact else {
                problems.list.append(fail(join(field, "pathExact"), "expected true or false"))
                return nil
            }
            guard case .string(let written)? = request["path"], case .literal = path else {
                problems.list.append(fail(join(field, "pathExact"), "only with a literal \"path\" (the path compared byte for byte)"))
                return nil
            }
            if on { pattern.pathExact = written }
        }
        return pattern
    }

    /// `"graphql": "ProfileQuery"` or `{"operationName", "persistedQueryHash", "variables"}`.
    func readGraphQL(_ value: JSONValue?, at field: String) throws(FixtureError) -> (pattern: GraphQLPattern?, Void) {
        guard let value else { return (nil, ()) }
        if case .string(let name) = value {
            guard !name.isEmpty else { throw fail(field, "give the operation's name, e.g. \"ProfileQuery\"") }
            return (GraphQLPattern(operationName: name), ())
        }
        let members = try object(value, at: field, allowed: ["operationName", "persistedQueryHash", "variables"])
        var pattern = GraphQLPattern()
        pattern.operationName = try string(members["operationName"], at: join(field, "operationName"))
        pattern.persistedQueryHash = try string(members["persistedQueryHash"], at: join(field, "persistedQueryHash"))
        if let variables = members["variables"] {
            guard case .object(let given) = variables else { throw fail(join(field, "variables"), "expected an object of variable name: value, e.g. {\"id\": 7}") }
            pattern.variables = given.map { ($0.key, $0.value) }
        }
        if pattern.operationName == nil && pattern.persistedQueryHash == nil && pattern.variables.isEmpty {
            throw fail(field, "give operationName, persistedQueryHash or variables")
        }
        return (pattern, ())
    }

    func readPath(_ request: [String: JSONValue], at field: String) throws(FixtureError) -> PathPattern {
        let given = ["path", "pathTemplate", "pathPattern", "urlPattern"].filter { request[$0] != nil }
        guard given.count == 1, let key = given.first else {
            throw fail(join(field, "path"), given.isEmpty ? "missing; give the request path, e.g. \"/users/octocat\", a pathTemplate such as \"/users/{login}\" or a pathPattern (regular expression)"
                                                          : "give one of path, pathTemplate, pathPattern or urlPattern")
        }
        let path = try string(request[key], at: join(field, key))!
        if key == "pathPattern" || key == "urlPattern" {
            try checkRegex(path, at: join(field, key))
            return key == "pathPattern" ? .regex(path) : .urlRegex(path)
        }
        guard path.hasPrefix("/") else {
            throw fail(join(field, key), "\"\(path)\" must start with \"/\"")
        }
        // A request line cannot carry a control character (CR LF would end it): no request could reach the route.
        if let control = path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw fail(join(field, key), "contains the control character U+\(String(format: "%04X", control.value)), which no request line can carry; percent-encode it (a CR is %0D, a LF %0A)")
        }
        if path.contains("?") {
            throw fail(join(field, key), "\"\(path)\" contains '?'; put query parameters in \"query\" (a literal '?' in a Moya path is written %3F)")
        }
        if let first = PathSegments(raw: path).segments.first, first == "__stubd" {
            throw fail(join(field, key), "\"\(path)\" is under /__stubd/, which is the admin API's; no stub is ever served there. Use another path")
        }
        guard key == "pathTemplate" else { return .literal(PathSegments(raw: path)) }
        switch PathTemplate.parse(path) {
        case .success(let template): return .template(template)
        case .failure(let problem): throw fail(join(field, key), "\"\(path)\" \(problem.message)")
        }
    }

    /// Query pairs, names given as `{"present": true}` (any value), and value matchers.
    func readQuery(_ value: JSONValue?, at field: String) throws(FixtureError) -> QueryPattern {
        guard case .object(let members)? = value else { return QueryPattern(pairs: try readPairs(value, at: field)) }
        var plain: [(key: String, value: JSONValue)] = []
        var present: [String] = []
        var matches: [NamedMatch] = []
        for member in members {
            guard case .object(let matcher) = member.value else { plain.append(member); continue }
            if matcher.count == 1, matcher[0].key == "present", matcher[0].value == .bool(true) {
                present.append(member.key)
            } else {
                matches.append(NamedMatch(member.key, try readValueMatch(matcher, at: join(field, member.key), allowPresent: true)))
            }
        }
        return QueryPattern(pairs: try readPairs(.object(plain), at: field), present: present, matches: matches)
    }

    /// Headers or cookies: plain values (exact) and value matchers.
    func readMatchedPairs(_ value: JSONValue?, at field: String) throws(FixtureError) -> (pairs: [NameValue], matches: [NamedMatch]) {
        guard case .object(let members)? = value else { return (try readPairs(value, at: field), []) }
        var plain: [(key: String, value: JSONValue)] = []
        var matches: [NamedMatch] = []
        for member in members {
            guard case .object(let matcher) = member.value else { plain.append(member); continue }
            matches.append(NamedMatch(member.key, try readValueMatch(matcher, at: join(field, member.key), allowPresent: false)))
        }
        return (try readPairs(.object(plain), at: field), matches)
    }

    /// `{"equalTo": "x", "caseInsensitive": true}`, `{"contains": "x"}`, `{"matches": "re"}` or
    /// `{"absent": true}`.
    func readValueMatch(_ members: [(key: String, value: JSONValue)], at field: String, allowPresent: Bool) throws(FixtureError) -> ValueMatch {
        let usage = "expected a string, an array of strings, or one of {\"equalTo\": \"…\"} (with \"caseInsensitive\": true), {\"contains\": \"…\"}, {\"matches\": \"regex\"}, {\"absent\": true}" + (allowPresent ? ", {\"present\": true}" : "")
        var byKey: [String: JSONValue] = [:]
        for member in members { byKey[member.key] = member.value }
        let kinds = ["equalTo", "contains", "matches", "absent"].filter { byKey[$0] != nil }
        guard kinds.count == 1, Set(byKey.keys).isSubset(of: Set(kinds + (kinds == ["equalTo"] ? ["caseInsensitive"] : []))) else {
            throw fail(field, usage)
        }
        switch kinds[0] {
        case "absent":
            guard byKey["absent"] == .bool(true) else { throw fail(field, usage) }
            return .absent
        case "equalTo":
            guard case .string(let text)? = byKey["equalTo"] else { throw fail(join(field, "equalTo"), "expected a string") }
            var caseInsensitive = false
            if let flag = byKey["caseInsensitive"] {
                guard case .bool(let value) = flag else { throw fail(join(field, "caseInsensitive"), "expected true or false") }
                caseInsensitive = value
            }
            return .equalTo(text, caseInsensitive: caseInsensitive)
        case "contains":
            guard case .string(let text)? = byKey["contains"] else { throw fail(join(field, "contains"), "expected a string") }
            return .contains(text)
        default:
            guard case .string(let pattern)? = byKey["matches"] else { throw fail(join(field, "matches"), "expected a regular expression as a string") }
            try checkRegex(pattern, at: join(field, "matches"))
            return .matches(pattern)
        }
    }

    /// Refuses a regular expression ICU cannot compile, naming the field.
    func checkRegex(_ pattern: String, at field: String) throws(FixtureError) {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw fail(field, "\"\(pattern)\" is not a valid regular expression (ICU syntax)")
        }
    }

    func readPairs(_ value: JSONValue?, at field: @autoclosure () -> String) throws(FixtureError) -> [NameValue] {
        let field = field
        guard let value else { return [] }
        guard case .object(let members) = value else {
            throw fail(field(), "expected an object of name: value (or name: [values]), found \(value.kindName)")
        }
        var pairs: [NameValue] = []
        for member in members {
            switch member.value {
            case .string(let text): pairs.append(NameValue(member.key, text))
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    guard case .string(let text) = element else {
                        throw fail("\(join(field(), member.key))[\(index)]", "expected a string, found \(element.kindName)")
                    }
                    pairs.append(NameValue(member.key, text))
                }
            default:
                throw fail(join(field(), member.key), "expected a string or an array of strings, found \(member.value.kindName) (write numbers as text: \"30\")")
            }
        }
        return pairs
    }

    /// A body pattern, and the field names whose values it accepts any of (`anyValueFor`, with
    /// `json` or `form` only).
    func readRequestBody(_ value: JSONValue?, at field: String) throws(FixtureError) -> BodyRule {
        guard let value else { return BodyRule(.any) }
        var body = try object(value, at: field, allowed: FixtureField.keys(of: .requestBody))
        var options = JSONMatchOptions()
        for key in ["ignoreExtraElements", "ignoreArrayOrder"] {
            guard let flag = body.removeValue(forKey: key) else { continue }
            guard case .bool(let on) = flag else { throw fail(join(field, key), "expected true or false") }
            guard body["json"] != nil || body["all"] != nil else { throw fail(join(field, key), "applies to a json body only") }
            if key == "ignoreExtraElements" { options.ignoreExtraElements = on } else { options.ignoreArrayOrder = on }
        }
        var anyValueFor: [String] = []
        if let names = body.removeValue(forKey: "anyValueFor") {
            guard case .array(let list) = names else { throw fail(join(field, "anyValueFor"), "expected an array of field names, found \(names.kindName)") }
            anyValueFor = try list.enumerated().map { index, name throws(FixtureError) -> String in
                guard case .string(let text) = name else { throw fail("\(join(field, "anyValueFor"))[\(index)]", "expected a string, found \(name.kindName)") }
                return text
            }.sorted()
            guard body["json"] != nil || body["form"] != nil else {
                throw fail(join(field, "anyValueFor"), "applies to a json or form body only; give one beside it")
            }
        }
        return BodyRule(try readBodyKind(body, at: field), anyValueFor: anyValueFor, jsonOptions: options)
    }

    func readBodyKind(_ body: [String: JSONValue], at field: String) throws(FixtureError) -> BodyPattern {
        guard body.count == 1, let (kind, content) = body.first else {
            throw fail(field, "give exactly one of json, form, text, base64, multipart, fields, contains, matches, jsonPath or all")
        }
        switch kind {
        case "all":
            guard case .array(let elements) = content, elements.count >= 2 else {
                throw fail(join(field, "all"), "expected an array of two or more body patterns, e.g. [{\"contains\": \"a\"}, {\"json\": {…}}]")
            }
            return .all(try elements.enumerated().map { index, element throws(FixtureError) -> BodyPattern in
                let at = "\(join(field, "all"))[\(index)]"
                return try readBodyKind(try object(element, at: at, allowed: ["json", "form", "text", "base64", "fields", "contains", "matches", "jsonPath"]), at: at)
            })
        case "jsonPath":
            let at = join(field, "jsonPath")
            var expression: String
            var test: ValueMatch?
            switch content {
            case .string(let text): expression = text
            case .object(let members):
                guard case .string(let text)? = content["expression"] else { throw fail(join(at, "expression"), "missing; give the JSONPath, e.g. \"$.user.name\"") }
                expression = text
                test = try readValueMatch(members.filter { $0.key != "expression" }, at: at, allowPresent: false)
            default:
                throw fail(at, "expected a JSONPath string (\"$.items[?(@.id == 7)]\") or {\"expression\": \"$.name\", \"equalTo\": \"…\"}")
            }
            switch JSONPath.parse(expression) {
            case .success(let path): return .jsonPath(path, test)
            case .failure(let problem): throw fail(at, "\"\(expression)\" \(problem.message)")
            }
        case "fields":
            guard case .array(let names) = content else { throw fail(join(field, "fields"), "expected an array of field names, found \(content.kindName)") }
            return .fields(try names.enumerated().map { index, name throws(FixtureError) -> String in
                guard case .string(let text) = name else { throw fail("\(join(field, "fields"))[\(index)]", "expected a string, found \(name.kindName)") }
                return text
            }.sorted())
        case "json": return .json(content)
        case "form": return .form(try readPairs(content, at: join(field, "form")))
        case "text": return .bytes(Array(try string(content, at: join(field, "text"))!.utf8))
        case "multipart": return .multipart(try readParts(content, at: join(field, "multipart")))
        case "contains": return .contains(try string(content, at: join(field, "contains"))!)
        case "matches":
            let pattern = try string(content, at: join(field, "matches"))!
            try checkRegex(pattern, at: join(field, "matches"))
            return .matches(pattern)
        default: return .bytes(try base64(content, at: join(field, "base64")))
        }
    }

    func readParts(_ value: JSONValue, at field: String) throws(FixtureError) -> [MultipartPart] {
        guard case .array(let elements) = value else { throw fail(field, "expected an array of parts, found \(value.kindName)") }
        var parts: [MultipartPart] = []
        for (index, element) in elements.enumerated() {
            let at = "\(field)[\(index)]"
            let part = try object(element, at: at, allowed: ["name", "fileName", "contentType", "text", "base64"])
            guard let name = try string(part["name"], at: join(at, "name")) else { throw fail(join(at, "name"), "missing; give the form field name") }
            var body: [UInt8] = []
            if part["text"] != nil && part["base64"] != nil { throw fail(at, "give text or base64, not both") }
            if let text = try string(part["text"], at: join(at, "text")) { body = Array(text.utf8) }
            if let encoded = part["base64"] { body = try base64(encoded, at: join(at, "base64")) }
            parts.append(MultipartPart(name: name, fileName: try string(part["fileName"], at: join(at, "fileName")),
                                       contentType: try string(part["contentType"], at: join(at, "contentType")), body: body))
        }
        return parts
    }

    func base64(_ value: JSONValue, at field: String) throws(FixtureError) -> [UInt8] {
        let text = try string(value, at: field)!
        guard let data = Data(base64Encoded: text) else { throw fail(field, "not valid base64") }
        return [UInt8](data)
    }
}
