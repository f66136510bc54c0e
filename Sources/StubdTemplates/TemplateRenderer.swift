package import Foundation
package import StubModel
package import StubdState
import Synchronization
package import StubdEngine

/// Renders a route's `ResponseTemplate` for one request: every substitution reads the request
/// (or the route, the session, the clock), JSON string values stay JSON strings, header values
/// lose every control character but TAB (a value from the request can never split a header or
/// smuggle one), values put into a URL's path or query are percent-encoded. Output is bounded:
/// past `outputBound` bytes rendering stops and the answer is a 500 naming the route and the
/// bound. Runs on the request's loop; only templated routes call it.
package struct TemplateRenderer {
    /// The request, route, session and state handles it renders for.
    package let context: OutcomeContext

    /// A renderer for the request and route of `context`.
    package init(_ context: OutcomeContext) {
        self.context = context
    }

    /// Why rendering stopped.
    package enum Failure: Error {
        /// The output passed its bound (bytes).
        case outputBound(Int)
        /// A store refused a write (`{{counter}}`).
        case store(StateBudget.Refusal)
        /// `#each` blocks went round more than this many times in one rendering.
        case loopBound(Int)
    }

    /// One template string (a saved value, a webhook URL). In a URL (`encodingForURL`), what a
    /// substitution inserts after the authority is percent-encoded for where it lands: a path
    /// segment, or a query name or value.
    package func render(_ text: TemplateText, encodingForURL: Bool = false) throws(Failure) -> String {
        var context = Context(self.context, bound: outputBound(templateBytes: text.source.utf8.count))
        context.encodingForURL = encodingForURL
        let out = context.text(text)
        if let failure = context.failure { throw failure }
        return out
    }

    /// The reply for `template`, or — past a bound — a 500 (output) or 507 (a store) naming the
    /// route, the bound and how to raise it.
    package func render(_ template: ResponseTemplate, head: PreparedReply? = nil) -> PreparedReply {
        switch renderMessage(template, head: head) {
        case .success(let reply): return reply
        case .failure(let failure): return failureReply(failure)
        }
    }

    /// `render`, with the failure as a value (webhooks log it instead of answering it).
    /// `head`: the reply's status and headers made once, when every header value is constant.
    package func renderMessage(_ template: ResponseTemplate, head: PreparedReply? = nil) -> Result<PreparedReply, Failure> {
        let bound = outputBound(templateBytes: template.size)
        var context = Context(self.context, bound: bound)
        let headers = head != nil ? [] : template.headers.map { header in
            // By scalar: "\r\n" is one Character, which a Character filter would keep.
            NameValue(header.name, String(String.UnicodeScalarView(context.text(header.value).unicodeScalars.filter(Self.allowedInHeader))))
        }
        let body: [UInt8]
        switch template.body {
        case .bytes(let bytes): body = bytes
        case .text(let text): body = Array(context.text(text).utf8)
        case .json(let part): body = context.failure == nil ? Array(JSONWriter.write(context.json(part), pretty: false).utf8) : []
        }
        if let failure = context.failure { return .failure(failure) }
        // JSON escapes can lengthen what the substitutions counted.
        if body.count > bound { return .failure(.outputBound(bound)) }
        if let head { return .success(PreparedReply(sameHeadAs: head, body: body)) }
        return .success(PreparedReply(status: template.status, headers: headers, body: body, trailers: template.trailers))
    }

    /// TAB and every character that is not a control character (C0, DEL).
    package static func allowedInHeader(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F)
    }

    /// How many bytes this request's rendering of a template of `templateBytes` may reach: four
    /// times the template and the request together, plus 64 KiB, and never more than the
    /// server's `--template-output-limit`.
    package func outputBound(templateBytes: Int) -> Int {
        let request = context.request, state = context.state
        let requestBytes = request.body.count + request.rawPath.utf8.count + (request.rawQuery?.utf8.count ?? 0)
            + request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        let (scaled, overflow) = (templateBytes + requestBytes).multipliedReportingOverflow(by: 4)
        return min(state.outputLimit, overflow ? Int.max : scaled + (64 << 10))
    }

    /// The answer for a failure: 500 for the output bound, 507 for a store's.
    package func failureReply(_ failure: Failure) -> PreparedReply {
        switch failure {
        case .outputBound:
            return JSONReply.error(explain(failure), status: 500,
                                    problems: ["a template's output may reach 4 × (the template + the request) + 64 KiB, at most --template-output-limit "
                                               + "(\(StateBudget.size(context.state.outputLimit))); shorten what the template repeats, or raise the flag"])
        case .store:
            return JSONReply.error(explain(failure), status: 507)
        case .loopBound:
            return JSONReply.error(explain(failure), status: 500,
                                    problems: ["a template's #each blocks may go round \(TemplateLoops.bound) times in one answer; loop over less (a jsonPath that selects fewer items)"])
        }
    }

    /// One sentence naming the route and the bound.
    package func explain(_ failure: Failure) -> String {
        switch failure {
        case .outputBound(let bound): return "route \(context.route.name): the templated output passed its bound of \(bound) bytes"
        case .store(let refusal): return "route \(context.route.name): \(refusal.description)"
        case .loopBound(let bound): return "route \(context.route.name): the template's loops went round more than \(bound) times"
        }
    }

    /// What one request offers its template, each part read at most once.
    private struct Context {
        let request: IncomingRequest
        let route: any AnsweringRoute
        let session: SessionID?
        let state: TemplateState
        let collections: any CollectionItemsSource
        private var parsedBody: JSONValue??
        private var segments: [String]?
        /// Bytes the output may still take.
        private var remaining: Int
        let bound: Int
        /// Set when rendering stopped; nothing more is produced.
        var failure: Failure?
        /// Values inserted after a URL's authority are percent-encoded.
        var encodingForURL = false
        /// The blocks' contexts, innermost last (empty outside blocks: no allocation for templates
        /// without them).
        private var frames: [TemplateFrame] = []
        /// Names `#assign` set.
        private var assigned: [String: JSONValue] = [:]
        /// `#each` rounds so far.
        private var loops = 0
        /// The rendering's time for regular expressions (`=~` filters), all of them together.
        private lazy var regexBudget = RegexBudget()

        init(_ outcome: OutcomeContext, bound: Int) {
            (request, route, session, state, collections) = (outcome.request, outcome.route, outcome.session, outcome.state, outcome.collections)
            (self.bound, remaining) = (bound, bound)
        }

        /// Appends `piece` while the bound allows.
        private mutating func append(_ piece: String, to out: inout String) {
            guard failure == nil else { return }
            remaining -= piece.utf8.count
            guard remaining >= 0 else {
                failure = .outputBound(bound)
                return
            }
            out += piece
        }

        private func collectionItems(_ name: String) -> [JSONValue]? {
            collections.collectionItems(named: name, session: session)
        }

        mutating func text(_ template: TemplateText) -> String {
            var out = ""
            render(template.parts, into: &out)
            return out
        }

        /// Renders parts after what `out` holds (a URL's encoding depends on where a value lands).
        mutating func render(_ parts: [TemplateText.Part], into out: inout String) {
            for part in parts {
                guard failure == nil else { break }
                switch part {
                case .literal(let text): append(text, to: &out)
                case .value(let value):
                    let inserted = self.value(value)
                    append(encodingForURL ? URLComponentEncoding.encode(inserted, after: out) : inserted, to: &out)
                case .expression(let expression, let escaped):
                    // A request value written on its own is its text: a repeated query parameter's first
                    // value, as WireMock writes it (its list is for #each, join, size).
                    var inserted: String
                    if case .value(let value) = expression { inserted = self.value(value) } else { inserted = TemplateEvaluation.text(of: evaluate(expression)) }
                    // Escaping only lengthens: past what may still be written, stop before it grows.
                    if escaped, inserted.utf8.count <= remaining { inserted = TemplateEvaluation.escapeHTML(inserted) }
                    append(encodingForURL ? URLComponentEncoding.encode(inserted, after: out) : inserted, to: &out)
                case .block(let block):
                    render(block, into: &out)
                }
            }
        }

        private mutating func render(_ block: TemplateBlock, into out: inout String) {
            let argument = block.arguments.first.map { evaluate($0) } ?? .null
            switch block.helper {
            case .if:
                render(TemplateEvaluation.isTruthy(argument) ? block.body : block.inverse, into: &out)
            case .unless:
                render(TemplateEvaluation.isTruthy(argument) ? block.inverse : block.body, into: &out)
            case .condition(let helper):
                let holds = TemplateEvaluation.isTruthy(evaluate(.helper(helper, block.arguments, block.options)))
                render(holds ? block.body : block.inverse, into: &out)
            case .with:
                guard TemplateEvaluation.isTruthy(argument) else { return render(block.inverse, into: &out) }
                var locals: [String: JSONValue] = [:]
                if let name = block.parameters.first { locals[name] = argument }
                frames.append(TemplateFrame(this: argument, locals: locals))
                render(block.body, into: &out)
                frames.removeLast()
            case .assign:
                guard case .string(let name) = argument else { return }
                var value = ""
                render(block.body, into: &value)
                assigned[name] = .string(value)
            case .each:
                let items = TemplateEvaluation.items(of: argument)
                guard !items.isEmpty else { return render(block.inverse, into: &out) }
                for (index, item) in items.enumerated() {
                    guard failure == nil else { return }
                    loops += 1
                    guard loops <= TemplateLoops.bound else {
                        failure = .loopBound(TemplateLoops.bound)
                        return
                    }
                    var locals: [String: JSONValue] = ["@index": .number(Double(index)), "@first": .bool(index == 0),
                                                       "@last": .bool(index == items.count - 1)]
                    if let key = item.key { locals["@key"] = .string(key) }
                    if block.parameters.count > 0 { locals[block.parameters[0]] = item.value }
                    if block.parameters.count > 1 { locals[block.parameters[1]] = item.key.map { .string($0) } ?? .number(Double(index)) }
                    frames.append(TemplateFrame(this: item.value, locals: locals))
                    render(block.body, into: &out)
                    frames.removeLast()
                }
            }
        }

        /// An expression's value: request values, literals, the blocks' variables, helpers.
        mutating func evaluate(_ expression: TemplateExpression) -> JSONValue {
            switch expression {
            case .literal(let value): return value
            case .variable(let variable): return TemplateEvaluation.lookup(variable, frames: frames, assigned: assigned)
            case .value(let value): return typed(value)
            case .helper(let helper, let arguments, let options):
                let values = arguments.map { evaluate($0) }
                var named: [String: JSONValue] = [:]
                for option in options { named[option.name] = evaluate(option.value) }
                do {
                    return try TemplateEvaluation.apply(helper, values, named, now: state.now(session: session), budget: max(0, remaining),
                                                       regexBudget: regexBudget)
                } catch {
                    failure = .outputBound(bound)
                    return .null
                }
            }
        }

        /// A request value as a JSON value: `jsonPath` keeps what it selects (a list for a path that
        /// selects several), a repeated query parameter its values; the rest are text.
        private mutating func typed(_ value: TemplateValue) -> JSONValue {
            switch value {
            case .jsonPath(let path):
                guard let document = json() else { return .null }
                return TemplateEvaluation.selection(path, in: document, regexBudget: regexBudget)
            case .collectionPath(let name, let path):
                return TemplateEvaluation.selection(path, in: .array(collectionItems(name) ?? []), regexBudget: regexBudget)
            case .query(let name):
                let values = FormCoding.decodePairs(request.rawQuery ?? "").filter { $0.name == name }.map { JSONValue.string($0.value) }
                return values.count > 1 ? .array(values) : values.first ?? .null
            default:
                return .string(self.value(value))
            }
        }

        /// A GraphQL variable of the request (`graphql.variables.input.theme`), or null.
        private mutating func graphQLVariable(_ path: [String]) -> JSONValue {
            guard var value = graphQL()?.variables else { return .null }
            for step in path {
                if let index = Int(step), case .array(let items) = value { value = items.indices.contains(index) ? items[index] : .null } else { value = value[step] ?? .null }
            }
            return value
        }

        mutating func json(_ part: ResponseTemplate.JSONPart) -> JSONValue {
            switch part {
            case .constant(let value): return value
            case .string(let template): return .string(text(template))
            case .array(let items): return .array(items.map { json($0) })
            case .object(let members): return .object(members.map { ($0.key, json($0.value)) })
            case .templatedObject(let members): return .object(members.map { (text($0.key), json($0.value)) })
            case .graphQLVariable(let path): return graphQLVariable(path)
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
                guard let template = route.pathTemplate,
                      let index = template.segments.firstIndex(of: .parameter(name)) else { return "" }
                let all = pathSegments()
                return all.indices.contains(index) ? all[index] : ""
            case .query(let name):
                return FormCoding.decodePairs(request.rawQuery ?? "").first { $0.name == name }?.value ?? ""
            case .queryAt(let name, let index):
                let values = FormCoding.decodePairs(request.rawQuery ?? "").filter { $0.name == name }
                return values.indices.contains(index) ? values[index].value : ""
            case .header(let name):
                return request.header(name) ?? ""
            case .headerAt(let name, let index):
                let values = request.headers.filter { $0.name.lowercased() == name }
                return values.indices.contains(index) ? values[index].value : ""
            case .cookie(let name):
                return NameValue.cookies(in: request.headers).first { $0.name == name }?.value ?? ""
            case .body: return String(decoding: request.body, as: UTF8.self)
            case .baseURL:
                let (host, port) = authority()
                let scheme = request.isTLS ? "https" : "http"
                let standard = port == (request.isTLS ? 443 : 80)
                return scheme + "://" + host + (standard ? "" : ":\(port)")
            case .scheme: return request.isTLS ? "https" : "http"
            case .host: return authority().host
            case .port: return String(authority().port)
            case .jsonPath(let path):
                guard let document = json(), let first = path.select(in: document, regexBudget: regexBudget).first else { return "" }
                if case .string(let text) = first { return text }
                return JSONWriter.write(first, pretty: false)
            case .graphQLOperation: return graphQL()?.operationName ?? ""
            case .graphQLVariable(let path):
                return graphQL() == nil ? "" : TemplateEvaluation.text(of: graphQLVariable(path))
            case .routeName: return route.name
            case .session: return session?.rawValue ?? ""
            case .now(let format): return Clock.format(state.now(session: session), format)
            case .counter:
                do {
                    return String(try state.nextCount(route: route.id, session: session))
                } catch {
                    failure = .store(error)
                    return ""
                }
            case .saved(let name): return state.saved(name, session: session) ?? ""
            case .collectionCount(let name): return String(collections.collectionCount(named: name, session: session) ?? 0)
            case .collectionPath(let name, let path):
                guard let first = path.select(in: .array(collectionItems(name) ?? []), regexBudget: regexBudget).first else { return "" }
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

        /// The `Host` header's name and port (the scheme's default when it names none).
        private func authority() -> (host: String, port: Int) {
            let fallback = request.isTLS ? 443 : 80
            guard let header = request.header("Host")?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return ("localhost", fallback) }
            if header.hasPrefix("["), let close = header.firstIndex(of: "]") {
                let host = String(header[...close])
                let rest = header[header.index(after: close)...]
                return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? fallback : fallback)
            }
            if let colon = header.lastIndex(of: ":") {
                return (String(header[..<colon]), Int(header[header.index(after: colon)...]) ?? fallback)
            }
            return (header, fallback)
        }

        private mutating func pathSegments() -> [String] {
            if let segments { return segments }
            let made = PathSegments(raw: request.rawPath).segments
            segments = made
            return made
        }

        private mutating func graphQL() -> GraphQLRequest? {
            GraphQLRequest.read(method: request.method, query: FormCoding.decodePairs(request.rawQuery ?? ""), contentType: request.header("Content-Type"),
                                body: request.body, json: request.method == "GET" ? nil : json())
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
package protocol CollectionItemsSource: AnyObject, Sendable {
    /// The session's items of the collection `name`, or nil when no route serves one.
    func collectionItems(named name: String, session: SessionID?) -> [JSONValue]?
    /// How many items that is, without reading them.
    func collectionCount(named name: String, session: SessionID?) -> Int?
}

/// `now`: dates written with a cached formatter per pattern and zone (making one costs more
/// than rendering a whole template).
package enum Clock {
    private static let formatters = Mutex<[String: DateFormatter]>([:])

    package static func format(_ now: Date, _ format: NowFormat) -> String {
        var date = now.addingTimeInterval(format.offsetSeconds)
        let zone = TimeZone(identifier: format.timeZone ?? "UTC") ?? TimeZone(identifier: "UTC")!
        if format.offsetMonths != 0 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            date = calendar.date(byAdding: .month, value: format.offsetMonths, to: date) ?? date
        }
        switch format.pattern {
        // A date may come from the request (`epoch` of 1e300): clamped, never converted raw.
        case "epoch"?: return String(CheckedNumber.clamped((date.timeIntervalSince1970 * 1000).rounded(.down), to: Int.min...Int.max))
        case "unix"?: return String(CheckedNumber.clamped(date.timeIntervalSince1970.rounded(.down), to: Int.min...Int.max))
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
