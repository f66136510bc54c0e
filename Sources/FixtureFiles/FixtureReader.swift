import Foundation
import StubdSystem
public import StubModel

/// Turns the JSON of one fixture file into fixtures, rejecting unknown fields and wrong types
/// with the exact field path. The format is documented in docs/FIXTURES.md.
public struct FixtureReader {
    /// Loads the bytes of a `bodyFile` (a path relative to the fixtures root's `__files/`);
    /// throws a problem sentence if the file is missing or outside the root.
    public typealias BodyFileLoader = (_ relativePath: String) throws(FixtureProblem) -> [UInt8]

    /// A problem sentence raised while reading a field; the reader adds file and field.
    public struct FixtureProblem: Error {
        /// What is wrong.
        public let message: String
        /// Creates a problem.
        public init(_ message: String) { self.message = message }
    }

    private let file: String
    private let loadBodyFile: BodyFileLoader

    /// A reader for `file` (used in errors and as each fixture's source).
    public init(file: String, loadBodyFile: @escaping BodyFileLoader) {
        self.file = file
        self.loadBodyFile = loadBodyFile
    }

    /// The fixtures in a file: `{"routes": [ … ]}`, or a single route object. Every problem in
    /// the file is reported, not only the first: each route is read to the end, and within a route
    /// each independent field (request parts, answer, timing, scenario) is checked.
    public func read(_ bytes: [UInt8]) throws(FixtureErrors) -> [Fixture] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw FixtureErrors(errors: [FixtureError(file: file, field: "", problem: "invalid JSON at \(error)")])
        }
        return try read(document: document)
    }

    /// The fixtures in a parsed document (a runtime route sent to the admin API).
    public func read(document: JSONValue) throws(FixtureErrors) -> [Fixture] {
        let problems = Problems()
        if case .object = document, document["collections"] != nil, document["routes"] == nil {
            guard problems.check({ () throws(FixtureError) in try object(document, at: "", allowed: ["collections"]) }) != nil else { throw problems.errors }
            let collections = try readCollections(document, problems)
            if !problems.list.isEmpty { throw problems.errors }
            return collections
        }
        if case .object = document, document["routes"] != nil {
            guard let root = problems.check({ () throws(FixtureError) in try object(document, at: "", allowed: FixtureField.keys(of: .file)) }) else {
                throw problems.errors
            }
            guard case .array(let routes)? = root["routes"] else {
                throw FixtureErrors(errors: [fail("routes", "expected an array of routes, found \(root["routes"]!.kindName)")])
            }
            var fixtures = routes.enumerated().compactMap { index, route in readRoute(route, at: "routes[\(index)]", problems) }
            if let flag = root["templates"] {
                guard case .bool(let on) = flag else { throw FixtureErrors(errors: [fail("templates", "expected true or false")]) }
                // Every response of the file is a template; each is checked as if it said so itself.
                if on {
                    for index in fixtures.indices {
                        fixtures[index].outcomes = fixtures[index].outcomes.map { outcome in
                            guard case .response(var response) = outcome, !response.template else { return outcome }
                            response.template = true
                            _ = problems.check { () throws(FixtureError) in try checkTemplate(response, at: "routes[\(index)].response") }
                            return .response(response)
                        }
                    }
                }
            }
            if root["collections"] != nil { fixtures += try readCollections(document, problems) }
            if !problems.list.isEmpty { throw problems.errors }
            return fixtures
        }
        let fixture = readRoute(document, at: "", problems)
        guard let fixture, problems.list.isEmpty else { throw problems.errors }
        return [fixture]
    }

    /// Problems found so far in one file; `check` runs one independent step and keeps its error.
    final class Problems {
        var list: [FixtureError] = []
        var errors: FixtureErrors { FixtureErrors(errors: list) }

        func check<T>(_ step: () throws(FixtureError) -> T) -> T? {
            do {
                return try step()
            } catch {
                list.append(error)
                return nil
            }
        }
    }

    func fail(_ field: String, _ problem: String) -> FixtureError {
        FixtureError(file: file, field: field, problem: problem)
    }

    func join(_ base: String, _ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }

    /// The members of an object, refusing keys not in `allowed`. Field paths are autoclosures
    /// throughout this reader: they are built only when there is an error to report.
    func object(_ value: JSONValue, at field: @autoclosure () -> String, allowed: [String]) throws(FixtureError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            if field().isEmpty, case .array = value {
                throw fail("", "the file is an array; a fixture file is an object with the routes in it: {\"routes\": [ … ]}")
            }
            throw fail(field(), "expected an object, found \(value.kindName)")
        }
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(members.count)
        for member in members {
            guard allowed.contains(member.key) else {
                let path = field()
                // A route's own field written inside its answer (`response.delay`): say where it goes.
                if !allowed.contains("request"), FixtureField.keys(of: .route).contains(member.key), ["response", "fault", "stream"].contains(path.split(separator: ".").last.map(String.init) ?? "") {
                    throw fail(join(path, member.key), "\"\(member.key)\" belongs on the route, beside \"\(path.split(separator: ".").last!)\" (e.g. {\"request\": {…}, \"response\": {…}, \"\(member.key)\": …})")
                }
                throw fail(join(path, member.key), "unknown field; allowed here: \(allowed.joined(separator: ", "))")
            }
            result[member.key] = member.value
        }
        return result
    }

    func string(_ value: JSONValue?, at field: @autoclosure () -> String) throws(FixtureError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw fail(field(), "expected a string, found \(value.kindName)") }
        return text
    }

    private func readRoute(_ value: JSONValue, at field: String, _ problems: Problems) -> Fixture? {
        let before = problems.list.count
        let route = problems.check { () throws(FixtureError) in
            try object(value, at: field, allowed: FixtureField.keys(of: .route))
        }
        guard let route else { return nil }
        var request: RequestPattern?
        if let requestValue = route["request"] {
            request = readRequest(requestValue, at: join(field, "request"), problems)
        } else {
            problems.list.append(fail(join(field, "request"), "missing; every route needs a request"))
        }
        let outcomes = problems.check { () throws(FixtureError) in try readOutcomes(route, at: field) }
        let timing = problems.check { () throws(FixtureError) in try readTiming(route, at: field) }
        let scenario = problems.check { () throws(FixtureError) in try readScenario(route, at: field) }
        let dribble = problems.check { () throws(FixtureError) in
            try route["dribble"].map { value throws(FixtureError) in try readDribble(value, at: join(field, "dribble")) }
        }
        let name = problems.check { () throws(FixtureError) in try string(route["name"], at: join(field, "name")) }
        let saves = problems.check { () throws(FixtureError) in try readSaves(route["save"], at: join(field, "save")) }
        let webhooks = problems.check { () throws(FixtureError) in try readWebhooks(route["webhooks"], at: join(field, "webhooks")) }
        let faultSteps = problems.check { () throws(FixtureError) in try readFaultSteps(route["faultSteps"], at: join(field, "faultSteps")) }
        guard problems.list.count == before, let request, let outcomes, let timing, let scenario, let dribble, let name, let saves,
              let webhooks, let faultSteps else { return nil }
        let location = field.isEmpty ? file : "\(file) \(field)"
        var fixture = Fixture(name: name ?? "\(request.method) \(request.path)", source: location, request: request,
                              outcomes: outcomes.list, afterLast: outcomes.afterLast, delay: timing.delay, priority: timing.priority,
                              scenario: scenario)
        fixture.dribble = dribble
        fixture.delayDistribution = timing.distribution
        fixture.saves = saves
        fixture.webhooks = webhooks
        fixture.faultSteps = faultSteps
        return fixture
    }

    /// `"faultSteps": "beforeStatus"` (the default) or `"inBody"`.
    private func readFaultSteps(_ value: JSONValue?, at field: String) throws(FixtureError) -> FaultStepPlacement {
        guard let value else { return .beforeStatus }
        let names = FaultStepPlacement.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard case .string(let text) = value, let placement = FaultStepPlacement(rawValue: text) else {
            throw fail(field, "expected \(names), found \(value); \"inBody\" makes the client fail while reading the body of a 200 (docs/FAULTS.md)")
        }
        return placement
    }

    /// `"save": {"token": "{{jsonPath request.body '$.token'}}"}`: templates, checked now.
    private func readSaves(_ value: JSONValue?, at field: String) throws(FixtureError) -> [SavedValue] {
        guard let value else { return [] }
        guard case .object(let members) = value else { throw fail(field, "expected an object of name: template, e.g. {\"token\": \"{{jsonPath request.body '$.token'}}\"}") }
        var saves: [SavedValue] = []
        for member in members {
            guard case .string(let text) = member.value else { throw fail(join(field, member.key), "expected a template string") }
            switch TemplateText.parse(text) {
            case .success(let template): saves.append(SavedValue(name: member.key, value: template))
            case .failure(let problem): throw fail(join(field, member.key), problem.description)
            }
        }
        return saves
    }

    /// The answer (`response`, `networkError`, `fault`, or a `responses` sequence and `afterLast`).
    private func readOutcomes(_ route: [String: JSONValue], at field: String) throws(FixtureError) -> (list: [StubOutcome], afterLast: SequenceEnd) {
        let answers = FixtureField.answerKeys.filter { route[$0] != nil }
        guard answers.count == 1 else {
            let choices = FixtureField.answerKeys.dropLast().joined(separator: ", ") + " or " + FixtureField.answerKeys.last!
            throw fail(field.isEmpty ? "route" : field,
                       answers.isEmpty ? "missing an answer; give one of \(choices)"
                                       : "give only one of \(choices) (found \(answers.joined(separator: " and ")))")
        }
        var outcomes: [StubOutcome]
        if let list = route["responses"] {
            guard case .array(let elements) = list, !elements.isEmpty else {
                throw fail(join(field, "responses"), "expected a non-empty array of responses (each a response object, {\"fault\": …} or {\"networkError\": …})")
            }
            outcomes = []
            for (index, element) in elements.enumerated() {
                outcomes.append(try readSequenceElement(element, at: "\(join(field, "responses"))[\(index)]"))
            }
        } else if let value = route["collection"] {
            let (spec, action) = try readCollection(value, at: join(field, "collection"), withAction: true)
            outcomes = [.collection(CollectionOperation(collection: spec, action: action!))]
        } else {
            outcomes = [try readOutcome(route, at: field)]
        }
        var afterLast = SequenceEnd.repeatLast
        if let value = try string(route["afterLast"], at: join(field, "afterLast")) {
            guard let mode = SequenceEnd(rawValue: value) else {
                throw fail(join(field, "afterLast"), "unknown value \"\(value)\"; use repeatLast or cycle")
            }
            afterLast = mode
        }
        return (outcomes, afterLast)
    }

    /// `"collections": [{"name", "path", "id"?, "seed"?}, …]`: six routes each (see `CollectionSpec`).
    private func readCollections(_ document: JSONValue, _ problems: Problems) throws(FixtureErrors) -> [Fixture] {
        guard case .array(let list)? = document["collections"] else {
            throw FixtureErrors(errors: [fail("collections", "expected an array of collections, e.g. [{\"name\": \"todos\", \"path\": \"/todos\", \"seed\": []}]")])
        }
        var fixtures: [Fixture] = []
        var names: Set<String> = []
        for (index, value) in list.enumerated() {
            let field = "collections[\(index)]"
            guard let spec = problems.check({ () throws(FixtureError) in try readCollection(value, at: field, withAction: false).spec }) else { continue }
            if !names.insert(spec.name).inserted {
                problems.list.append(fail(join(field, "name"), "\"\(spec.name)\" is declared twice in this file; give each collection its own name"))
                continue
            }
            fixtures += spec.fixtures(source: "\(file) \(field)")
        }
        return fixtures
    }

    private func readCollection(_ value: JSONValue, at field: String, withAction: Bool) throws(FixtureError) -> (spec: CollectionSpec, action: CollectionSpec.Action?) {
        let members = try object(value, at: field, allowed: ["name", "path", "id", "seed"] + (withAction ? ["action"] : []))
        guard let name = try string(members["name"], at: join(field, "name")), !name.isEmpty else { throw fail(join(field, "name"), "missing; name the collection, e.g. \"todos\"") }
        guard let path = try string(members["path"], at: join(field, "path")) else { throw fail(join(field, "path"), "missing; give its base path, e.g. \"/todos\" (items are at /todos/{id})") }
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("{"), path.count > 1, !path.hasSuffix("/") else {
            throw fail(join(field, "path"), "\"\(path)\" must be a plain path such as /todos (no query, no {parameter}, no trailing /)")
        }
        if let first = PathSegments(raw: path).segments.first, first == "__stubd" {
            throw fail(join(field, "path"), "\"\(path)\" is under /__stubd/, which is the admin API's")
        }
        let idField = try string(members["id"], at: join(field, "id")) ?? "id"
        var seed: [JSONValue] = []
        if let value = members["seed"] {
            guard case .array(let items) = value else { throw fail(join(field, "seed"), "expected an array of objects") }
            var ids: Set<String> = []
            for (index, item) in items.enumerated() {
                guard case .object = item, let id = item[idField], CollectionSpec.idText(id) != nil else {
                    throw fail("\(join(field, "seed"))[\(index)]", "expected an object with a string or integer \"\(idField)\"")
                }
                if !ids.insert(CollectionSpec.idText(id)!).inserted { throw fail("\(join(field, "seed"))[\(index)].\(idField)", "id \(CollectionSpec.idText(id)!) is used twice") }
            }
            seed = items
        }
        var action: CollectionSpec.Action?
        if withAction {
            guard let text = try string(members["action"], at: join(field, "action")), let parsed = CollectionSpec.Action(rawValue: text) else {
                throw fail(join(field, "action"), "expected one of \(CollectionSpec.Action.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            action = parsed
        }
        return (CollectionSpec(name: name, path: path, idField: idField, seed: seed), action)
    }

    /// `delay` (seconds, or a string with a unit: `"1500ms"`, `"1.5s"`) and `priority`.
    private func readTiming(_ route: [String: JSONValue], at field: String) throws(FixtureError) -> (delay: Double?, priority: Int, distribution: DelayDistribution?) {
        var delay: Double?
        var distribution: DelayDistribution?
        if case .object = route["delay"] {
            distribution = try readDelayDistribution(route["delay"]!, at: join(field, "delay"))
        } else {
            delay = try seconds(route["delay"], at: join(field, "delay"))
        }
        var priority = Fixture.defaultPriority
        if let value = route["priority"] {
            guard case .number(let number) = value, number == number.rounded(), number >= 1, number <= 1_000_000 else {
                throw fail(join(field, "priority"), "expected an integer from 1 (highest) upward, found \(value); routes without one have \(Fixture.defaultPriority)")
            }
            priority = Int(number)
        }
        return (delay, priority, distribution)
    }

    /// `{"uniform": [low, high]}` or `{"lognormal": {"median": s, "sigma": x, "max": s}}`, seconds.
    private func readDelayDistribution(_ value: JSONValue, at field: String) throws(FixtureError) -> DelayDistribution {
        let members = try object(value, at: field, allowed: ["uniform", "lognormal"])
        let usage = "give {\"uniform\": [low, high]} or {\"lognormal\": {\"median\": seconds, \"sigma\": number, \"max\": seconds}}"
        guard members.count == 1 else { throw fail(field, usage) }
        if case .array(let bounds)? = members["uniform"] {
            guard bounds.count == 2, case .number(let low) = bounds[0], case .number(let high) = bounds[1], low >= 0, high >= low, high <= 3600 else {
                throw fail(join(field, "uniform"), "expected [low, high] in seconds, 0 ≤ low ≤ high ≤ 3600")
            }
            return .uniform(low: low, high: high)
        }
        if let lognormal = members["lognormal"] {
            let parts = try object(lognormal, at: join(field, "lognormal"), allowed: ["median", "sigma", "max"])
            guard case .number(let median)? = parts["median"], median >= 0, median <= 3600,
                  case .number(let sigma)? = parts["sigma"], sigma >= 0, sigma <= 10 else {
                throw fail(join(field, "lognormal"), "expected \"median\" (seconds, 0–3600) and \"sigma\" (0–10)")
            }
            var cap: Double?
            if let value = parts["max"] {
                guard case .number(let number) = value, number >= 0, number <= 3600 else { throw fail(join(field, "lognormal.max"), "expected seconds from 0 to 3600") }
                cap = number
            }
            return .lognormal(median: median, sigma: sigma, max: cap)
        }
        throw fail(field, usage)
    }

    /// The answer named by a route (or a sequence element): `response`, `networkError` or `fault`.
    private func readOutcome(_ route: [String: JSONValue], at field: String) throws(FixtureError) -> StubOutcome {
        if let response = route["response"] {
            return .response(try readResponse(response, at: join(field, "response")))
        }
        if let error = route["networkError"] {
            return try readNetworkError(error, at: join(field, "networkError"))
        }
        if let stream = route["stream"] { return .stream(try readStream(stream, at: join(field, "stream"))) }
        if let answer = route["llm"] { return .llm(try readLLMAnswer(answer, at: join(field, "llm"))) }
        if let script = route["websocket"] { return .websocket(try readWebSocket(script, at: join(field, "websocket"))) }
        let name = try string(route["fault"], at: join(field, "fault"))!
        guard let fault = Fault(rawValue: name) else {
            throw fail(join(field, "fault"), "unknown fault \"\(name)\"; use one of \(Fault.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return .fault(fault)
    }

    /// One element of `responses`: a response object, or `{"fault": …}` / `{"networkError": …}`.
    private func readSequenceElement(_ value: JSONValue, at field: String) throws(FixtureError) -> StubOutcome {
        let keys = FixtureField.sequenceElementKeys
        if keys.contains(where: { value[$0] != nil }) {
            let element = try object(value, at: field, allowed: keys)
            guard element.count == 1 else { throw fail(field, "give one of \(keys.dropLast().joined(separator: ", ")) or \(keys.last!)") }
            return try readOutcome(element, at: field)
        }
        return .response(try readResponse(value, at: field))
    }

    private func readDribble(_ value: JSONValue, at field: String) throws(FixtureError) -> Dribble {
        let dribble = try object(value, at: field, allowed: ["chunks", "seconds"])
        guard case .number(let chunks)? = dribble["chunks"], chunks == chunks.rounded(), chunks >= 1, chunks <= 100_000 else {
            throw fail(join(field, "chunks"), "expected an integer from 1 to 100000, e.g. {\"chunks\": 10, \"seconds\": 2}")
        }
        guard case .number(let seconds)? = dribble["seconds"], seconds > 0, seconds <= 600 else {
            throw fail(join(field, "seconds"), "expected seconds from 0 (exclusive) to 600, e.g. {\"chunks\": 10, \"seconds\": 2}")
        }
        guard seconds / chunks < 20 else {
            throw fail(field, "one chunk every \(JSONWriter.format(seconds / chunks)) s is longer than the 20 s a connection may stay silent; use more chunks")
        }
        return Dribble(chunks: Int(chunks), seconds: seconds)
    }

    private func readScenario(_ route: [String: JSONValue], at field: String) throws(FixtureError) -> ScenarioStep? {
        let required = try string(route["requiredState"], at: join(field, "requiredState"))
        let new = try string(route["newState"], at: join(field, "newState"))
        guard let name = try string(route["scenario"], at: join(field, "scenario")) else {
            if required != nil || new != nil {
                throw fail(join(field, "scenario"), "missing; requiredState and newState belong to a named scenario")
            }
            return nil
        }
        guard !name.isEmpty else { throw fail(join(field, "scenario"), "must not be empty") }
        return ScenarioStep(name: name, requiredState: required, newState: new)
    }

    /// A response object. `defaults` (a route's answer, not a webhook's message) adds the
    /// headers `ResponseDefaults` names unless the object says `"defaultHeaders": false`.
    func readResponse(_ value: JSONValue, at field: String, defaults: Bool = true) throws(FixtureError) -> StubHTTPResponse {
        let allowed = FixtureField.keys(of: .response).filter { defaults || $0 != "defaultHeaders" }
        let response = try object(value, at: field, allowed: allowed)
        var status = 200
        if let value = response["status"] {
            guard case .number(let number) = value, number == number.rounded(), (100...599).contains(number) else {
                throw fail(join(field, "status"), "expected an integer from 100 to 599, found \(value)")
            }
            status = Int(number)
        }
        let headers = try readPairs(response["headers"], at: join(field, "headers"))
        for header in headers where ["content-length", "transfer-encoding", "connection"].contains(header.name.lowercased()) {
            throw fail(join(field, "headers.\(header.name)"), "stubd sets \(header.name) itself; remove it")
        }
        for header in headers {
            if !HTTPSyntax.isToken(header.name) {
                throw fail(join(field, "headers.\(header.name)"), "\"\(header.name)\" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only; no spaces or colons)")
            }
            if let bad = HTTPSyntax.firstInvalidFieldValueCharacter(header.value) {
                throw fail(join(field, "headers.\(header.name)"), "the value contains \(bad), which HTTP header values cannot carry; remove it")
            }
        }
        let bodies = ["json", "text", "base64", "bodyFile"].filter { response[$0] != nil }
        guard bodies.count <= 1 else {
            throw fail(field, "give at most one body: json, text, base64 or bodyFile (found \(bodies.joined(separator: " and ")))")
        }
        var body: [UInt8] = []
        if let kind = bodies.first, let content = response[kind] {
            switch kind {
            case "json": body = Array(JSONWriter.write(content, pretty: false).utf8)
            case "text": body = Array(try string(content, at: join(field, "text"))!.utf8)
            case "base64": body = try base64(content, at: join(field, "base64"))
            default:
                let path = try string(content, at: join(field, "bodyFile"))!
                do {
                    body = try loadBodyFile(path)
                } catch {
                    throw fail(join(field, "bodyFile"), error.message)
                }
            }
        }
        var sent = headers
        if defaults {
            var add = true
            if let flag = response["defaultHeaders"] {
                guard case .bool(let on) = flag else { throw fail(join(field, "defaultHeaders"), "expected true or false") }
                add = on
            }
            if add {
                let kind: ResponseDefaults.BodyKind? = switch bodies.first {
                case "json": .json
                case "text": .text
                case "base64": .base64
                case "bodyFile": .file((try? string(response["bodyFile"], at: field)) ?? "")
                default: nil
                }
                sent += ResponseDefaults.added(for: kind, headers: headers, bodyIsEmpty: body.isEmpty)
            }
        }
        var result = StubHTTPResponse(status: status, headers: sent, body: body)
        result.trailers = try readTrailers(response["trailers"], status: status, at: join(field, "trailers"))
        if let flag = response["template"] {
            switch flag {
            case .bool(let on): result.template = on
            case .string(let name):
                guard let dialect = TemplateDialect(rawValue: name) else {
                    throw fail(join(field, "template"), "expected true, false or \"wiremock\" (WireMock's Handlebars: {{…}} escapes HTML), got \"\(name)\"")
                }
                result.template = true
                result.templateDialect = dialect
            default: throw fail(join(field, "template"), "expected true, false or \"wiremock\"")
            }
            if result.template { try checkTemplate(result, at: field) }
        }
        return result
    }

    /// A templated response's substitutions parse (`response.json.id: template column 7: …`).
    private func checkTemplate(_ response: StubHTTPResponse, at field: String) throws(FixtureError) {
        if case .failure(let problem) = ResponseTemplate.compile(response) {
            throw fail(join(field, problem.field), problem.problem.description)
        }
    }

    private func readNetworkError(_ value: JSONValue, at field: String) throws(FixtureError) -> StubOutcome {
        let error = try object(value, at: field, allowed: ["domain", "code"])
        let domain = try string(error["domain"], at: join(field, "domain")) ?? "NSURLErrorDomain"
        guard case .number(let number)? = error["code"], let code = CheckedNumber.exactInt(number), Int32(exactly: code) != nil else {
            throw fail(join(field, "code"), "expected the integer error code, e.g. -1001 (NSURLErrorTimedOut)")
        }
        return .networkError(domain: domain, code: code)
    }
}
