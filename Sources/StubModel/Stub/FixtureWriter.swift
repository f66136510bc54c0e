import Foundation

/// Writes fixtures in the fixture file format, so targets can be exported and served (or edited)
/// without Swift. Reading what it writes gives equal fixtures (tested).
///
/// Bodies are written as `json` only when re-serialising the parsed JSON gives the very same
/// bytes, else as `text` when they are UTF-8, else as `base64` — so no byte changes on the way.
public enum FixtureWriter {
    /// The document for a list of fixtures: `{"routes": [ … ]}`.
    public static func document(for fixtures: [Fixture]) -> JSONValue {
        .object([("routes", .array(fixtures.map(route)))])
    }

    /// Pretty JSON text for a list of fixtures, ending in a newline.
    public static func text(for fixtures: [Fixture]) -> String {
        JSONWriter.write(document(for: fixtures), pretty: true) + "\n"
    }

    /// One route object, as it appears in a fixture file.
    public static func route(_ fixture: Fixture) -> JSONValue {
        guard case .object(var members) = routeWithoutSaves(fixture) else { preconditionFailure("a route is an object") }
        if !fixture.saves.isEmpty { members.append(("save", .object(fixture.saves.map { ($0.name, .string($0.value.source)) }))) }
        if !fixture.webhooks.isEmpty { members.append(("webhooks", .array(fixture.webhooks.map(webhook)))) }
        return .object(members)
    }

    /// One webhook object: method, url, headers, body, and the timing fields that differ from
    /// the defaults.
    public static func webhook(_ webhook: Webhook) -> JSONValue {
        var fields: [(key: String, value: JSONValue)] = [("method", .string(webhook.method)), ("url", .string(webhook.url.source))]
        if !webhook.headers.isEmpty { fields.append(("headers", pairs(webhook.headers))) }
        if let body = body(webhook.body) { fields.append(body) }
        if webhook.delay != 0 { fields.append(("delay", .number(webhook.delay))) }
        if webhook.retries != 0 { fields.append(("retries", .number(Double(webhook.retries)))) }
        if webhook.retryDelay != 1 { fields.append(("retryDelay", .number(webhook.retryDelay))) }
        return .object(fields)
    }

    private static func routeWithoutSaves(_ fixture: Fixture) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(fixture.name))]
        members.append(("request", request(fixture.request)))
        if fixture.outcomes.count == 1 {
            members.append(outcome(fixture.outcome, inSequence: false))
        } else {
            members.append(("responses", .array(fixture.outcomes.map { outcome($0, inSequence: true).value })))
            if fixture.afterLast != .repeatLast { members.append(("afterLast", .string(fixture.afterLast.rawValue))) }
        }
        if let scenario = fixture.scenario {
            members.append(("scenario", .string(scenario.name)))
            if let state = scenario.requiredState { members.append(("requiredState", .string(state))) }
            if let state = scenario.newState { members.append(("newState", .string(state))) }
        }
        if let distribution = fixture.delayDistribution {
            members.append(("delay", delay(distribution)))
        } else if let delay = fixture.delay {
            members.append(("delay", .number(delay)))
        }
        if let dribble = fixture.dribble {
            members.append(("dribble", .object([("chunks", .number(Double(dribble.chunks))), ("seconds", .number(dribble.seconds))])))
        }
        if fixture.priority != Fixture.defaultPriority { members.append(("priority", .number(Double(fixture.priority)))) }
        if fixture.faultSteps != .beforeStatus { members.append(("faultSteps", .string(fixture.faultSteps.rawValue))) }
        return .object(members)
    }

    /// A route's answer as a member (`response`, `networkError`, `fault`), or, in a sequence, as
    /// the element object itself (a bare response object, or `{"fault": …}`).
    static func outcome(_ outcome: StubOutcome, inSequence: Bool) -> (key: String, value: JSONValue) {
        switch outcome {
        case .response(let response):
            var fields: [(key: String, value: JSONValue)] = [("status", .number(Double(response.status)))]
            if !response.headers.isEmpty { fields.append(("headers", pairs(response.headers))) }
            let body = body(response.body)
            if let body { fields.append(body) }
            if response.template { fields.append(("template", response.templateDialect == .stubd ? .bool(true) : .string(response.templateDialect.rawValue))) }
            if !response.trailers.isEmpty { fields.append(("trailers", pairs(response.trailers))) }
            // Read back, the file would gain headers this answer never had: say not to add them.
            let kind: ResponseDefaults.BodyKind? = switch body?.key {
            case "json": .json
            case "text": .text
            case "base64": .base64
            default: nil
            }
            if !ResponseDefaults.added(for: kind, headers: response.headers, bodyIsEmpty: response.body.isEmpty).isEmpty {
                fields.append(("defaultHeaders", .bool(false)))
            }
            return ("response", .object(fields))
        case .networkError(let domain, let code):
            let error = JSONValue.object([("domain", .string(domain)), ("code", .number(Double(code)))])
            return ("networkError", inSequence ? .object([("networkError", error)]) : error)
        case .fault(let fault):
            return ("fault", inSequence ? .object([("fault", .string(fault.rawValue))]) : .string(fault.rawValue))
        case .collection(let operation):
            return ("collection", .object(collection(operation.collection) + [("action", .string(operation.action.rawValue))]))
        case .stream(let stream):
            let value = StreamFixtureJSON.stream(stream)
            return ("stream", inSequence ? .object([("stream", value)]) : value)
        case .llm(let answer):
            let value = StreamFixtureJSON.llm(answer)
            return ("llm", inSequence ? .object([("llm", value)]) : value)
        case .websocket(let script):
            let value = WebSocketFixtureJSON.websocket(script)
            return ("websocket", inSequence ? .object([("websocket", value)]) : value)
        }
    }

    /// A collection's declaration: `name`, `path`, `id` when not `id`, `seed` when not empty.
    public static func collection(_ spec: CollectionSpec) -> [(key: String, value: JSONValue)] {
        var fields: [(key: String, value: JSONValue)] = [("name", .string(spec.name)), ("path", .string(spec.path))]
        if spec.idField != "id" { fields.append(("id", .string(spec.idField))) }
        if !spec.seed.isEmpty { fields.append(("seed", .array(spec.seed))) }
        return fields
    }

    /// A request pattern as the `request` object of a fixture file: method and path, then one
    /// field per part (`RequestPart`), under the keys `FixtureField` declares.
    public static func request(_ pattern: RequestPattern) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("method", .string(pattern.method))]
        switch pattern.path {
        case .literal(let path): members.append(("path", .string(path.wireForm)))
        case .template(let template): members.append(("pathTemplate", .string(template.wireForm)))
        case .regex(let regex): members.append(("pathPattern", .string(regex)))
        case .urlRegex(let regex): members.append(("urlPattern", .string(regex)))
        }
        var headers: [NameValue] = []
        var headerMatches: [(key: String, value: JSONValue)] = []
        var cookies: [(key: String, value: JSONValue)] = []
        for part in pattern.parts {
            switch part {
            case .pathExact: members.append(("pathExact", .bool(true)))
            case .host(let host): members.append(("host", .string(host)))
            case .query(let rule):
                guard case .object(let exact) = pairs(rule.pairs) else { preconditionFailure("pairs are an object") }
                let named = exact + rule.present.map { ($0, .object([("present", .bool(true))])) } + rule.matches.map { ($0.name, match($0.match)) }
                if !named.isEmpty { members.append(("query", .object(named))) }
                // A urlPattern covers the query, and a GraphQL route with no query pairs allows
                // others by itself (a GET carries the operation there): the reader sets both.
                if rule.othersAllowed, !pattern.path.coversQuery, pattern.graphQL == nil || !named.isEmpty { members.append(("anyOtherQuery", .bool(true))) }
            case .header(let header): headers.append(header)
            case .headerMatch(let header): headerMatches.append((header.name, match(header.match)))
            case .cookie(let cookie): cookies.append((cookie.name, match(cookie.match)))
            case .graphQL(let graphQL):
                var fields: [(key: String, value: JSONValue)] = []
                if let name = graphQL.operationName { fields.append(("operationName", .string(name))) }
                if let hash = graphQL.persistedQueryHash { fields.append(("persistedQueryHash", .string(hash))) }
                if !graphQL.variables.isEmpty { fields.append(("variables", .object(graphQL.variables.map { ($0.name, $0.value) }))) }
                members.append(("graphql", .object(fields)))
            case .body(let rule): members.append(("body", .object(body(rule))))
            }
        }
        if case .object(let exact) = pairs(headers), !(exact.isEmpty && headerMatches.isEmpty) { members.append(("headers", .object(exact + headerMatches))) }
        if !cookies.isEmpty { members.append(("cookies", .object(cookies))) }
        return .object(members)
    }

    /// A body rule as the `body` object: the pattern's member, then its options.
    static func body(_ rule: BodyRule) -> [(key: String, value: JSONValue)] {
        var members = body(rule.match)
        if !rule.anyValueFor.isEmpty { members.append(("anyValueFor", .array(rule.anyValueFor.map { .string($0) }))) }
        if rule.jsonOptions.ignoreExtraElements { members.append(("ignoreExtraElements", .bool(true))) }
        if rule.jsonOptions.ignoreArrayOrder { members.append(("ignoreArrayOrder", .bool(true))) }
        return members
    }

    /// One body pattern's member (`json`, `form`, `contains`, … or `all`), without options.
    static func body(_ pattern: BodyPattern) -> [(key: String, value: JSONValue)] {
        switch pattern {
        case .any: return []
        case .contains(let text): return [("contains", .string(text))]
        case .matches(let regex): return [("matches", .string(regex))]
        case .json(let json): return [("json", json.sortingKeys)]
        case .form(let form): return [("form", pairs(form))]
        case .fields(let names): return [("fields", .array(names.map { .string($0) }))]
        case .bytes(let bytes): return [textOrBase64(bytes)]
        case .all(let patterns): return [("all", .array(patterns.map { .object(body($0)) }))]
        case .jsonPath(let path, nil): return [("jsonPath", .string(path.text))]
        case .jsonPath(let path, let value?):
            guard case .object(let test) = match(value) else { return [("jsonPath", .string(path.text))] }
            return [("jsonPath", .object([("expression", .string(path.text))] + test))]
        case .multipart(let parts):
            return [("multipart", .array(parts.map { part in
                var fields: [(key: String, value: JSONValue)] = [("name", .string(part.name))]
                if let fileName = part.fileName { fields.append(("fileName", .string(fileName))) }
                if let contentType = part.contentType { fields.append(("contentType", .string(contentType))) }
                fields.append(textOrBase64(part.body))
                return .object(fields)
            }))]
        }
    }

    /// A value matcher as its fixture object.
    static func match(_ match: ValueMatch) -> JSONValue {
        switch match {
        case .equalTo(let text, let caseInsensitive):
            return .object([("equalTo", .string(text))] + (caseInsensitive ? [("caseInsensitive", .bool(true))] : []))
        case .contains(let text): return .object([("contains", .string(text))])
        case .matches(let regex): return .object([("matches", .string(regex))])
        case .absent: return .object([("absent", .bool(true))])
        }
    }

    /// A delay distribution as its fixture object.
    static func delay(_ distribution: DelayDistribution) -> JSONValue {
        switch distribution {
        case .uniform(let low, let high): return .object([("uniform", .array([.number(low), .number(high)]))])
        case .lognormal(let median, let sigma, let max):
            var fields: [(key: String, value: JSONValue)] = [("median", .number(median)), ("sigma", .number(sigma))]
            if let max { fields.append(("max", .number(max))) }
            return .object([("lognormal", .object(fields))])
        }
    }

    /// Pairs grouped by name (first-appearance order); repeated names become arrays.
    public static func pairs(_ pairs: [NameValue]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for pair in pairs {
            if values[pair.name] == nil { order.append(pair.name) }
            values[pair.name, default: []].append(pair.value)
        }
        return .object(order.map { name in
            let list = values[name]!
            return (name, list.count == 1 ? .string(list[0]) : .array(list.map { .string($0) }))
        })
    }

    static func body(_ bytes: [UInt8]) -> (key: String, value: JSONValue)? {
        if bytes.isEmpty { return nil }
        if let json = try? JSONParser.parse(bytes), Array(JSONWriter.write(json, pretty: false).utf8) == bytes {
            switch json {
            case .object, .array: return ("json", json)
            default: break
            }
        }
        return textOrBase64(bytes)
    }

    static func textOrBase64(_ bytes: [UInt8]) -> (key: String, value: JSONValue) {
        if let text = String(validating: bytes, as: UTF8.self) { return ("text", .string(text)) }
        return ("base64", .string(Data(bytes).base64EncodedString()))
    }
}
