import Foundation
import FixtureFiles
import StubModel
import StubdSystem

/// Converts a WireMock root (`mappings/*.json` + `__files/`) into stubd fixtures: one
/// `ImportedFile` per mapping file, single mappings and `{"mappings": [...]}` alike, read as
/// WireMock reads them (comments allowed, a repeated key's last value wins). Fields stubd has no
/// equivalent for are listed (`file: field: not supported (…)`) and the rest is kept; a mapping
/// stubd cannot use (a bad regex, a `bodyFileName` outside `__files`, a proxy stub) and a file
/// that is not JSON are skipped with the reason — never the whole root — so a suite WireMock
/// serves is served. Format facts: WireMock 2.x/3.x stub mapping JSON, checked against
/// WireMock 2.35.1 itself.
public enum WireMockImporter {
    /// Every mapping file under `root/mappings` (or `root` itself when it has no `mappings/`).
    /// `globalTemplating`: every response is a template, as with WireMock's
    /// `--global-response-templating` (otherwise only mappings whose `transformers` name
    /// `response-template`).
    /// `helpers`: a suite's own Handlebars helpers as stubd templates (`"currentYear":
    /// "{{now format='yyyy'}}"`), put in place of `{{currentYear}}` before templates are read.
    public static func importRoot(_ root: String, globalTemplating: Bool = false, helpers: [String: TemplateHelpers.Helper] = [:]) -> [ImportedFile] {
        let mappings = root + "/mappings"
        var isDirectory: ObjCBool = false
        let folder = FileManager.default.fileExists(atPath: mappings, isDirectory: &isDirectory) && isDirectory.boolValue ? mappings : root
        return WireMockOverlaps.resolve(FixtureLoader.fixtureFiles(under: folder).map {
            importFile($0, root: root, globalTemplating: globalTemplating, helpers: helpers)
        })
    }

    /// One mapping file.
    public static func importFile(_ file: String, root: String, globalTemplating: Bool = false, helpers: [String: TemplateHelpers.Helper] = [:]) -> ImportedFile {
        var result = ImportedFile(file: file)
        guard let data = FileManager.default.contents(atPath: file) else {
            result.unsupported = ["\(file): cannot be read (check its permissions); skipped"]
            return result
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse([UInt8](data), lenient: true)
        } catch {
            result.unsupported = ["\(file): invalid JSON at \(error) (WireMock does not start with it either); skipped"]
            return result
        }
        let mappings: [(field: String, value: JSONValue)]
        if case .array(let list)? = document["mappings"] {
            mappings = list.enumerated().map { ("mappings[\($0.offset)]", $0.element) }
        } else {
            mappings = [("", document)]
        }
        for (field, mapping) in mappings {
            var converter = MappingConverter(file: file, root: root, base: field, globalTemplating: globalTemplating, helpers: helpers)
            do {
                result.fixtures += try converter.convert(mapping)
                result.unsupported += converter.unsupported
            } catch {
                result.unsupported += converter.unsupported
                result.unsupported.append("\(error.description); this mapping is skipped")
            }
        }
        return result
    }
}

/// Converts one mapping, collecting unsupported-field lines.
struct MappingConverter {
    let file: String
    let root: String
    let base: String
    let globalTemplating: Bool
    let helpers: [String: TemplateHelpers.Helper]
    var unsupported: [String] = []

    init(file: String, root: String, base: String, globalTemplating: Bool = false, helpers: [String: TemplateHelpers.Helper] = [:]) {
        self.file = file
        self.root = root
        self.base = base
        self.globalTemplating = globalTemplating
        self.helpers = helpers
    }

    func at(_ field: String) -> String { base.isEmpty ? field : "\(base).\(field)" }

    func fail(_ field: String, _ problem: String) -> FixtureError {
        FixtureError(file: file, field: at(field), problem: problem)
    }

    mutating func skip(_ field: String, _ instead: String) {
        unsupported.append("\(file): \(at(field)): not supported (\(instead))")
    }

    /// A warning about something converted that may not mean what the suite meant.
    mutating func warn(_ field: String, _ text: String) {
        unsupported.append("\(file): \(at(field)): \(text)")
    }

    static let ignoredTopLevel: Set<String> = ["id", "uuid", "name", "persistent", "metadata", "insertionIndex"]
    static let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]

    mutating func convert(_ mapping: JSONValue) throws(FixtureError) -> [Fixture] {
        guard case .object(let members) = mapping else { throw fail("", "expected a mapping object, found \(mapping.kindName)") }
        for member in members where !["request", "response", "priority", "scenarioName", "requiredScenarioState", "newScenarioState",
                                      "postServeActions", "serveEventListeners"].contains(member.key)
            && !Self.ignoredTopLevel.contains(member.key) {
            skip(member.key, "ignored")
        }
        guard let request = mapping["request"] else { throw fail("request", "missing; every mapping needs a request") }
        guard let response = mapping["response"] else { throw fail("response", "missing; every mapping needs a response") }
        var (methods, pattern) = try convertRequest(request)
        let outcome = try convertResponse(response)
        let webhooks = convertWebhooks(mapping)
        var fixtures: [Fixture] = []
        let name = mapping["name"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        for method in methods {
            pattern.method = method
            var fixture = Fixture(name: name ?? "\(method) \(pattern.path)", source: "\(file)\(base.isEmpty ? "" : " \(base)")",
                                  request: pattern, outcome: outcome.outcome)
            fixture.delay = outcome.delay
            fixture.delayDistribution = outcome.distribution
            fixture.dribble = outcome.dribble
            fixture.webhooks = webhooks
            if case .number(let priority)? = mapping["priority"] {
                guard priority >= 1, priority == priority.rounded() else { throw fail("priority", "expected an integer from 1 upward") }
                fixture.priority = Int(priority)
            }
            if case .string(let scenario)? = mapping["scenarioName"] {
                let required = mapping["requiredScenarioState"].flatMap { if case .string(let text) = $0 { text } else { nil } }
                let next = mapping["newScenarioState"].flatMap { if case .string(let text) = $0 { text } else { nil } }
                fixture.scenario = ScenarioStep(name: scenario, requiredState: required, newState: next)
            }
            fixtures.append(fixture)
        }
        return fixtures
    }

    // MARK: - Request

    mutating func convertRequest(_ value: JSONValue) throws(FixtureError) -> (methods: [String], pattern: RequestPattern) {
        guard case .object(let members) = value else { throw fail("request", "expected an object") }
        let known: Set<String> = ["method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters",
                                  "headers", "cookies", "bodyPatterns", "basicAuthCredentials", "basicAuth"]
        for member in members where !known.contains(member.key) { skip("request.\(member.key)", "ignored; the request is matched without it") }
        // No method, like ANY, is any method (WireMock's default).
        var methods = Self.methods
        if case .string(let method)? = value["method"], method.uppercased() != "ANY" {
            methods = [method.uppercased()]
        }
        var pattern = RequestPattern(method: methods[0], path: "/")
        let urls = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter { value[$0] != nil }
        if urls.count > 1 { throw fail("request", "give one of url, urlPath, urlPattern, urlPathPattern or urlPathTemplate (found \(urls.joined(separator: ", ")))") }
        let kind = urls.first ?? "urlPattern"
        var text = "/.*"
        if let given = urls.first {
            guard case .string(let string)? = value[given] else { throw fail("request.\(given)", "expected a string") }
            text = string
        }
        switch kind {
        case "url":
            let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            pattern.path = .literal(PathSegments(raw: String(parts[0])))
            pattern.pathExact = String(parts[0])
            pattern.query = QueryPattern(pairs: parts.count > 1 ? FormCoding.decodePairs(String(parts[1])) : [])
        case "urlPath":
            pattern.path = .literal(PathSegments(raw: text))
            pattern.pathExact = text
            pattern.query.othersAllowed = true
        case "urlPathTemplate":
            switch PathTemplate.parse(text) {
            case .success(let template): pattern.path = .template(template)
            case .failure(let problem): throw fail("request.urlPathTemplate", "\"\(text)\" \(problem.message)")
            }
            pattern.query.othersAllowed = true
        case "urlPattern":
            // WireMock matches the whole URL as sent, path and query together.
            try checkRegex(text, at: "request.urlPattern")
            pattern.path = .urlRegex(text)
            pattern.query.othersAllowed = true
        default:
            // The path as sent (so `//` and percent-escapes are seen as WireMock sees them), any query.
            try checkRegex(text, at: "request.urlPathPattern")
            pattern.path = .urlRegex("(?:\(text))(?:\\?.*)?")
            pattern.query.othersAllowed = true
        }
        pattern.query.matches = try matchers(value["queryParameters"], at: "request.queryParameters")
        for header in try matchers(value["headers"], at: "request.headers") { pattern.add(.headerMatch(NamedMatch(header.name.lowercased(), header.match))) }
        for cookie in try matchers(value["cookies"], at: "request.cookies") { pattern.add(.cookie(cookie)) }
        if case .object(let credentials)? = value["basicAuthCredentials"] ?? value["basicAuth"] {
            let user = credentials.first { $0.key == "username" }.flatMap { if case .string(let text) = $0.value { text } else { nil } } ?? ""
            let password = credentials.first { $0.key == "password" }.flatMap { if case .string(let text) = $0.value { text } else { nil } } ?? ""
            let token = Data("\(user):\(password)".utf8).base64EncodedString()
            pattern.add(.headerMatch(NamedMatch("authorization", .equalTo("Basic \(token)", caseInsensitive: false))))
        }
        if case .array(let bodies)? = value["bodyPatterns"] {
            // Every pattern applies, as in WireMock.
            var all: [BodyPattern] = []
            var options = JSONMatchOptions()
            for (index, body) in bodies.enumerated() {
                let field = "request.bodyPatterns[\(index)]"
                guard let converted = try convertBody(body, at: field) else { continue }
                if case .json = converted.body, options.isExact { options = converted.options }
                all.append(converted.body)
            }
            if all.count == 1 { pattern.body = BodyRule(all[0], jsonOptions: options) } else if all.count > 1 { pattern.body = BodyRule(.all(all), jsonOptions: options) }
        }
        return (methods, pattern)
    }

    /// `{name: {equalTo|contains|matches|absent, caseInsensitive}}`; other operators are listed.
    mutating func matchers(_ value: JSONValue?, at field: String) throws(FixtureError) -> [NamedMatch] {
        guard let value else { return [] }
        guard case .object(let members) = value else { throw fail(field, "expected an object of name: matcher") }
        var out: [NamedMatch] = []
        for member in members {
            let at = "\(field).\(member.key)"
            guard case .object = member.value else { throw fail(at, "expected a matcher object such as {\"equalTo\": \"…\"}") }
            let caseInsensitive = member.value["caseInsensitive"] == .bool(true)
            if case .string(let text)? = member.value["equalTo"] {
                out.append(NamedMatch(member.key, .equalTo(text, caseInsensitive: caseInsensitive)))
            } else if case .string(let text)? = member.value["contains"] {
                out.append(NamedMatch(member.key, .contains(text)))
            } else if case .string(let text)? = member.value["matches"] {
                try checkRegex(text, at: "\(at).matches")
                out.append(NamedMatch(member.key, .matches(text)))
            } else if member.value["absent"] == .bool(true) {
                out.append(NamedMatch(member.key, .absent))
            } else {
                skip(at, "this matcher; the \(field.hasSuffix("headers") ? "header" : "value") is not compared")
            }
        }
        return out
    }

    mutating func convertBody(_ value: JSONValue, at field: String) throws(FixtureError) -> (body: BodyPattern, options: JSONMatchOptions)? {
        guard case .object = value else { throw fail(field, "expected a body pattern object") }
        if case .string(let text)? = value["equalTo"] { return (.bytes(Array(text.utf8)), JSONMatchOptions()) }
        if let json = value["equalToJson"] {
            var document = json
            if case .string(let text) = json {
                guard let parsed = try? JSONParser.parse(Array(text.utf8)) else { throw fail("\(field).equalToJson", "is a string that is not JSON") }
                document = parsed
            }
            let options = JSONMatchOptions(ignoreExtraElements: value["ignoreExtraElements"] == .bool(true),
                                           ignoreArrayOrder: value["ignoreArrayOrder"] == .bool(true))
            return (.json(document), options)
        }
        if let expression = value["matchesJsonPath"] {
            return try convertJSONPath(expression, at: "\(field).matchesJsonPath").map { ($0, JSONMatchOptions()) }
        }
        if case .string(let text)? = value["contains"] { return (.contains(text), JSONMatchOptions()) }
        if case .string(let text)? = value["matches"] {
            try checkRegex(text, at: "\(field).matches")
            return (.matches(text), JSONMatchOptions())
        }
        let kind = value.objectKeys.first ?? "?"
        skip("\(field).\(kind)", "the body is not compared for this pattern")
        return nil
    }

    /// `"$.a"` or `{"expression": "$.a", "equalTo" | "contains" | "matches" | "absent": …}`; other
    /// sub-matchers and expressions outside the supported subset are reported (the body is then
    /// not compared for that pattern).
    mutating func convertJSONPath(_ value: JSONValue, at field: String) throws(FixtureError) -> BodyPattern? {
        var expression = ""
        var test: ValueMatch?
        switch value {
        case .string(let text): expression = text
        case .object:
            guard case .string(let text)? = value["expression"] else { throw fail(field, "expected an expression") }
            expression = text
            if case .string(let text)? = value["equalTo"] { test = .equalTo(text, caseInsensitive: value["caseInsensitive"] == .bool(true)) }
            else if case .string(let text)? = value["contains"] { test = .contains(text) }
            else if case .string(let text)? = value["matches"] { try checkRegex(text, at: "\(field).matches"); test = .matches(text) }
            else if value["absent"] == .bool(true) { test = .absent }
            else {
                skip(field, "this sub-matcher of matchesJsonPath (equalTo, contains, matches and absent are); the body is not compared for it")
                return nil
            }
        default:
            throw fail(field, "expected a JSONPath string or an object with expression")
        }
        switch JSONPath.parse(expression) {
        case .success(let path): return .jsonPath(path, test)
        case .failure(let problem):
            skip(field, "\"\(expression)\" \(problem.message); the body is not compared for it")
            return nil
        }
    }

    func checkRegex(_ pattern: String, at field: String) throws(FixtureError) {
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw fail(field, "\"\(pattern)\" is not a valid regular expression")
        }
    }

    // MARK: - Response

    struct Converted {
        var outcome: StubOutcome
        var delay: Double?
        var distribution: DelayDistribution?
        var dribble: Dribble?
    }

    static let faults: [String: Fault] = ["CONNECTION_RESET_BY_PEER": .reset, "EMPTY_RESPONSE": .empty,
                                          "MALFORMED_RESPONSE_CHUNK": .badChunk, "RANDOM_DATA_THEN_CLOSE": .garbage]
    static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    mutating func convertResponse(_ value: JSONValue) throws(FixtureError) -> Converted {
        guard case .object(let members) = value else { throw fail("response", "expected an object") }
        let known: Set<String> = ["status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "fixedDelayMilliseconds",
                                  "delayDistribution", "chunkedDribbleDelay", "fault", "transformers", "transformerParameters"]
        if value["proxyBaseUrl"] != nil {
            throw fail("response.proxyBaseUrl", "per-stub proxying is not supported (serve with --proxy-unmatched URL to forward what no stub answers)")
        }
        for member in members where !known.contains(member.key) {
            skip("response.\(member.key)", "ignored")
        }
        var templated = globalTemplating
        if case .array(let transformers)? = value["transformers"] {
            for case .string(let name) in transformers {
                if name == "response-template" { templated = true } else { skip("response.transformers", "the transformer \"\(name)\" (stubd renders WireMock's response-template only)") }
            }
        }
        if value["transformerParameters"] != nil { skip("response.transformerParameters", "ignored; templates read the request only") }
        var converted = Converted(outcome: .response(StubHTTPResponse(status: 200)))
        if case .number(let ms)? = value["fixedDelayMilliseconds"] { converted.delay = ms / 1000 }
        if case .object? = value["delayDistribution"] { converted.distribution = try distribution(value["delayDistribution"]!) }
        if case .object? = value["chunkedDribbleDelay"] {
            guard case .number(let chunks)? = value["chunkedDribbleDelay"]?["numberOfChunks"],
                  case .number(let total)? = value["chunkedDribbleDelay"]?["totalDuration"], chunks >= 1 else {
                throw fail("response.chunkedDribbleDelay", "expected numberOfChunks and totalDuration (ms)")
            }
            converted.dribble = Dribble(chunks: Int(chunks), seconds: total / 1000)
        }
        if case .string(let fault)? = value["fault"] {
            guard let mapped = Self.faults[fault] else { throw fail("response.fault", "\"\(fault)\" is not a WireMock fault (\(Self.faults.keys.sorted().joined(separator: ", ")))") }
            converted.outcome = .fault(mapped)
            return converted
        }
        var status = 200
        if case .number(let number)? = value["status"] {
            guard (100...599).contains(number), number == number.rounded() else { throw fail("response.status", "expected 100–599") }
            status = Int(number)
        }
        var headers: [NameValue] = []
        if case .object(let list)? = value["headers"] {
            for header in list {
                if Self.framingHeaders.contains(header.key.lowercased()) {
                    skip("response.headers.\(header.key)", "stubd frames the body itself and sets it")
                    continue
                }
                switch header.value {
                case .string(let text): headers.append(NameValue(header.key, text))
                case .array(let values): headers += values.compactMap { if case .string(let text) = $0 { NameValue(header.key, text) } else { nil } }
                default: headers.append(NameValue(header.key, JSONWriter.write(header.value, pretty: false)))
                }
            }
        }
        var body: [UInt8] = []
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { value[$0] != nil }
        if bodies.count > 1 { throw fail("response", "give one of body, jsonBody, base64Body or bodyFileName (found \(bodies.joined(separator: ", ")))") }
        switch bodies.first {
        case "body":
            // WireMock (Jackson) takes a number or boolean as its text: "body": true sends "true".
            switch value["body"] {
            case .string(let text)?: body = Array(text.utf8)
            case .bool(let flag)?: body = Array("\(flag)".utf8)
            case .number?: body = Array(JSONWriter.write(value["body"]!, pretty: false).utf8)
            default: throw fail("response.body", "expected a string")
            }
        case "jsonBody":
            body = Array(JSONWriter.write(value["jsonBody"]!, pretty: false).utf8)
        case "base64Body":
            guard case .string(let text)? = value["base64Body"], let data = Data(base64Encoded: text) else { throw fail("response.base64Body", "not valid base64") }
            body = [UInt8](data)
        case "bodyFileName":
            guard case .string(let name)? = value["bodyFileName"] else { throw fail("response.bodyFileName", "expected a string") }
            do {
                body = try FixtureLoader.readBodyFile(name, root: root)
            } catch {
                throw fail("response.bodyFileName", error.message)
            }
        default: break
        }
        var response = StubHTTPResponse(status: status, headers: headers, body: body)
        if templated, TemplateText.mayBeTemplate(String(decoding: body, as: UTF8.self)) || headers.contains(where: { TemplateText.mayBeTemplate($0.value) }) {
            var expanded = response
            expanded.templateDialect = .wiremock
            if !helpers.isEmpty {
                expanded.headers = headers.map { NameValue($0.name, TemplateHelpers.expand($0.value, helpers)) }
                if let text = String(validating: body, as: UTF8.self) { expanded.body = Array(TemplateHelpers.expand(text, helpers).utf8) }
            }
            switch ResponseTemplate.compile(expanded) {
            case .success(let template):
                response = expanded
                response.template = true
                for name in template.emptyNames {
                    warn("response", "{{\(name)}} names no helper or value, so it renders empty, as WireMock renders it; if the suite "
                         + "registers \(name) as a helper, declare it for stubd in a helpers file (--template-helpers FILE, e.g. "
                         + "{\"\(name)\": \"{{now format='yyyy'}}\"})")
                }
            case .failure(let problem):
                let hint = problem.problem.message.hasPrefix("unknown name") ? "; if the suite registers it as a helper, declare it for stubd in a helpers file (--template-helpers FILE, e.g. {\"currentYear\": \"{{now format='yyyy'}}\"})" : ""
                skip("response.\(problem.field)", "\(problem.problem)\(hint); this answer is sent as written, braces included")
            }
        }
        converted.outcome = .response(response)
        return converted
    }

    mutating func distribution(_ value: JSONValue) throws(FixtureError) -> DelayDistribution {
        switch value["type"] {
        case .string("uniform")?:
            guard case .number(let lower)? = value["lower"], case .number(let upper)? = value["upper"], lower >= 0, upper >= lower else {
                throw fail("response.delayDistribution", "uniform needs lower ≤ upper (ms)")
            }
            return .uniform(low: lower / 1000, high: upper / 1000)
        case .string("lognormal")?:
            guard case .number(let median)? = value["median"], case .number(let sigma)? = value["sigma"] else {
                throw fail("response.delayDistribution", "lognormal needs median (ms) and sigma")
            }
            let cap = value["maxValue"].flatMap { if case .number(let number) = $0 { number / 1000 } else { nil } }
            return .lognormal(median: median / 1000, sigma: sigma, max: cap)
        default:
            throw fail("response.delayDistribution.type", "expected \"uniform\" or \"lognormal\"")
        }
    }
}

extension JSONValue {
    /// An object's keys in order (empty for other values).
    var objectKeys: [String] {
        if case .object(let members) = self { return members.map(\.key) }
        return []
    }
}
