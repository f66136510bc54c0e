import StubModel
import Foundation

/// An upstream's answer as a fixture keeps it: the status, the headers that describe the
/// content (not the connection, the length or the date), the body decoded from gzip/deflate,
/// and secrets redacted in headers (`Set-Cookie` included) and JSON bodies.
///
/// How the body is stored decides what replay sends: JSON that stubd would write back byte for
/// byte as `json` (pretty in the file, compact on the wire), other UTF-8 text up to
/// `inlineTextLimit` as `text`, everything else — binary, large, or JSON laid out differently —
/// as a body file under `__files/` holding the exact bytes.
struct RecordedResponse: Equatable {
    /// How the body is written.
    enum Storage: Equatable {
        /// No body.
        case none
        /// A `json` member.
        case json(JSONValue)
        /// A `text` member.
        case text(String)
        /// A file under `__files/` with this extension (`json`, `png`, `bin`).
        case file(extension: String)
        /// A `stream` member: an event stream or NDJSON recorded as events with their pauses.
        case stream(StubStream)
        /// A `websocket` member: a relayed conversation as a script (`RecordedConversation`).
        case websocket(WebSocketScript)
    }

    var status: Int
    var headers: [NameValue]
    /// The bytes replay sends (decoded, redacted).
    var body: [UInt8]
    var storage: Storage
    /// Names whose values were replaced.
    var redactedNames: Set<String> = []
    /// What could not be done as usual (an undecodable body), for the summary.
    var problems: [String] = []

    static func == (lhs: RecordedResponse, rhs: RecordedResponse) -> Bool {
        guard lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers == rhs.headers else { return false }
        if case .websocket(let left) = lhs.storage, case .websocket(let right) = rhs.storage { return left == right }
        return true
    }

    /// A recorded WebSocket conversation: a `101` whose script is the answer.
    init(conversation: RecordedConversation) {
        self.status = 101
        self.headers = []
        self.body = []
        self.storage = .websocket(conversation.script)
        self.redactedNames = conversation.redactedNames
        if conversation.repeatsWithOtherAnswers > 0 {
            problems.append("\(conversation.repeatsWithOtherAnswers) client message(s) sent again got other answers; each replays the first answer")
        }
    }

    /// The header a recorded answer carries when something could not be recorded as sent.
    static let noteHeader = "X-Stubd-Recording-Note"

    /// Text bodies up to this size are kept inline; larger ones go to a body file.
    static let inlineTextLimit = 64 * 1024

    /// Headers never recorded: about the connection or the framing, which stubd sets itself.
    static let droppedHeaders: Set<String> = NameValue.hopByHopNames.union(["content-length", "date"])

    init(status: Int, headers upstreamHeaders: [NameValue], body upstreamBody: [UInt8], redactor: Redactor, secrets requestSecrets: SecretValues = SecretValues(),
         arrivals: [StreamArrival] = []) {
        self.status = status
        var headers = upstreamHeaders.filter { !Self.droppedHeaders.contains($0.name.lowercased()) }
        var body = upstreamBody
        var decodedOK = true
        if let encoding = headers.first(where: { $0.name.lowercased() == "content-encoding" })?.value.trimmingCharacters(in: .whitespaces).lowercased() {
            if let decoded = Self.decode(body, codings: encoding) {
                body = decoded
                headers.removeAll { $0.name.lowercased() == "content-encoding" }
            } else if redactor.enabled {
                // Bytes stubd cannot read may carry tokens it cannot find: not stored, and the
                // file says so in a header replay sends.
                body = []
                headers.removeAll { $0.name.lowercased() == "content-encoding" }
                headers.append(NameValue(Self.noteHeader, "body not recorded: Content-Encoding \(encoding) could not be decoded, so its secrets could not be redacted"))
                problems.append("body sent with Content-Encoding: \(encoding) could not be decoded; not stored (it could hold secrets stubd cannot find)")
            } else {
                decodedOK = false
                problems.append("body sent with Content-Encoding: \(encoding) could not be decoded; stored as sent, header kept")
            }
        }
        // The request's secret values, the answer's own cookies and secret-named JSON values:
        // scrubbed wherever else they appear in the answer.
        var secrets = requestSecrets
        if redactor.enabled {
            for header in headers where header.name.lowercased() == "set-cookie" {
                let pair = header.value.split(separator: ";").first ?? ""
                if let equals = pair.firstIndex(of: "=") { secrets.add(String(pair[pair.index(after: equals)...])) }
            }
            if let json = try? JSONParser.parse(body) { secrets.addJSON(json, redactor: redactor) }
            let type = headers.first(where: { $0.name.lowercased() == "content-type" })?.value.lowercased() ?? ""
            if type.hasPrefix("application/x-www-form-urlencoded") {
                for pair in FormCoding.decodePairs(String(decoding: body, as: UTF8.self)) where redactor.isSecret(pair.name) { secrets.add(pair.value) }
            }
        }
        for header in headers where redactor.isSecret(header.name) { redactedNames.insert(header.name) }
        self.headers = redactor.pairs(headers).map { secrets.occurs(in: $0.value) ? NameValue($0.name, secrets.scrub($0.value)) : $0 }
        let contentType = headers.first(where: { $0.name.lowercased() == "content-type" })?.value.lowercased() ?? ""
        if body.isEmpty {
            storage = .none
        } else if !arrivals.isEmpty, decodedOK, let format = StreamParser.format(contentType: contentType) {
            // Event by event: each event's data redacted as a body of its kind would be, and a
            // secret value found in any event scrubbed from every other one.
            var events = StreamParser.events(body, format: format, arrivals: arrivals)
            if redactor.enabled {
                for event in events { if case .json(let json)? = event.data { secrets.addJSON(json, redactor: redactor) } }
            }
            for index in events.indices {
                switch events[index].data {
                case .json(let json)?:
                    let secret = SecretNames.inJSON(json, redactor: redactor)
                    redactedNames.formUnion(secret)
                    events[index].data = .json(secrets.scrub(secret.isEmpty ? json : redactor.json(json)))
                case .text(let text)?:
                    events[index].data = .text(secrets.scrub(text))
                case nil:
                    break
                }
                if let comment = events[index].comment { events[index].comment = secrets.scrub(comment) }
            }
            let stream = StubStream(status: status, headers: self.headers, format: format, events: events)
            self.storage = .stream(stream)
            self.body = stream.writes().writes.flatMap(\.bytes)
            return
        } else if !decodedOK {
            storage = .file(extension: "bin")
        } else if let json = try? JSONParser.parse(body), contentType.contains("json") || json.isContainer {
            let secret = SecretNames.inJSON(json, redactor: redactor)
            redactedNames.formUnion(secret)
            let stored = secrets.scrub(secret.isEmpty ? json : redactor.json(json))
            let compact = Array(JSONWriter.write(stored, pretty: false).utf8)
            if !secret.isEmpty || stored != json || compact == body {
                body = compact
                storage = compact.count <= Self.inlineTextLimit * 4 ? .json(stored) : .file(extension: "json")
            } else {
                storage = .file(extension: "json")
            }
        } else if contentType.hasPrefix("application/x-www-form-urlencoded"), let text = String(validating: body, as: UTF8.self) {
            // `access_token=…&token_type=bearer` (OAuth token answers, GitHub's among them).
            let names = Set(FormCoding.decodePairs(text).map(\.name).filter(redactor.isSecret))
            redactedNames.formUnion(names)
            let stored = secrets.scrub(redactor.query(text))
            body = Array(stored.utf8)
            storage = body.count <= Self.inlineTextLimit ? .text(stored) : .file(extension: "txt")
        } else if body.count <= Self.inlineTextLimit, let text = String(validating: body, as: UTF8.self), Self.isText(contentType, text) {
            body = Array(secrets.scrub(text).utf8)
            storage = .text(secrets.scrub(text))
        } else {
            body = secrets.scrub(body)
            storage = .file(extension: Self.fileExtension(for: contentType))
        }
        self.body = body
    }

    /// A body decoded from a list of codings (`gzip`, or `deflate, gzip`: applied in order, so
    /// undone in reverse); nil when any is unknown or fails.
    private static func decode(_ body: [UInt8], codings: String) -> [UInt8]? {
        var bytes = body
        for coding in codings.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).reversed() {
            guard let decoded = ContentDecoding.decode(bytes, encoding: coding) else { return nil }
            bytes = decoded
        }
        return bytes
    }

    private static func isText(_ contentType: String, _ text: String) -> Bool {
        if contentType.isEmpty { return !text.contains("\0") }
        return contentType.hasPrefix("text/") || ["json", "xml", "javascript", "x-www-form-urlencoded", "yaml", "csv"].contains { contentType.contains($0) }
    }

    /// A file extension for a body file, from its media type.
    static func fileExtension(for contentType: String) -> String {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let known: [String: String] = [
            "application/json": "json", "text/plain": "txt", "text/html": "html", "text/css": "css", "text/csv": "csv",
            "application/xml": "xml", "text/xml": "xml", "application/javascript": "js", "text/javascript": "js",
            "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg",
            "application/pdf": "pdf", "application/zip": "zip", "application/octet-stream": "bin",
        ]
        if let ext = known[type] { return ext }
        if type.hasSuffix("+json") { return "json" }
        return "bin"
    }

    /// The outcome replay serves.
    var outcome: StubOutcome {
        if case .stream(let stream) = storage { return .stream(stream) }
        return .response(StubHTTPResponse(status: status, headers: headers, body: body))
    }
}
