import Dispatch
import FixtureFiles
public import StubModel
import Synchronization

/// Turns captured exchanges (proxied, from a HAR file) into fixture files: one file per distinct
/// request (the matching rules serving uses), secrets redacted, bodies decoded and stored
/// readably, each file written whole.
///
/// `record` only hands the exchange to the recorder's own queue, where all the work happens in
/// arrival order — decoding (bodies up to 64 MiB), redaction, JSON, the durable writes — so an
/// event loop never does more than a copy of references. At most `pendingLimit` bytes of bodies
/// wait there; an exchange beyond that is counted as a problem, not queued.
public final class Recorder: Sendable {
    /// The upstream, as summaries and the `recordedFrom` member name it.
    public let upstream: String
    /// The options it was started with.
    public let options: RecordingOptions
    private let folder: RecordingFolder
    private let redactor: Redactor
    private let log: @Sendable (String) -> Void
    private let work = DispatchQueue(label: "stubd.recording")
    private let state: Mutex<State>
    private let pending = Mutex(0)
    /// Called on the recorder's queue before each file is written (tests hold writes with it).
    private let beforeWrite: @Sendable () -> Void

    /// Body bytes that may wait for the recorder's queue (1 GiB).
    public static let pendingLimit = 1 << 30

    /// Secrets of the whole capture (`RecordingOptions.knownSecrets`).
    private let knownSecrets: SecretValues

    private struct Entry {
        var name: String?
        var keptBy: String?
        var outcomes: [RecordedResponse]
        var differed = false
        var targetNamed: Bool
    }

    private struct State {
        var entries: [RecordedRequest: Entry] = [:]
        var taken: Set<String> = []
        var summary: RecordingSummary
        var redacted: Set<String> = []
        var files: Set<String> = []
    }

    /// Prepares the output folder (created if missing; an error if it cannot be written).
    /// `log` gets one line per recorded request and every problem.
    public convenience init(upstream: String, options: RecordingOptions, log: @escaping @Sendable (String) -> Void = { _ in }) throws(RecordingError) {
        try self.init(upstream: upstream, options: options, log: log, beforeWrite: {})
    }

    init(upstream: String, options: RecordingOptions, log: @escaping @Sendable (String) -> Void,
         beforeWrite: @escaping @Sendable () -> Void) throws(RecordingError) {
        self.beforeWrite = beforeWrite
        self.upstream = upstream
        self.options = options
        self.folder = try RecordingFolder(path: options.out, overwrite: options.overwrite)
        self.redactor = Redactor(enabled: true, keep: options.keep)
        var known = SecretValues()
        for value in options.knownSecrets { known.add(value) }
        self.knownSecrets = known
        self.log = log
        self.state = Mutex(State(summary: RecordingSummary(upstream: upstream, out: folder.path, sequences: options.sequences)))
    }

    /// Problems with files already in the folder (left as they are).
    public var warnings: [String] { folder.warnings }

    /// Records one exchange, later, on the recorder's queue; returns at once. Requests not
    /// answered whole are counted, never written.
    public func record(_ request: CapturedRequest, _ answer: CapturedResponse) {
        var size = request.body.count
        if case .answered(_, _, let body) = answer { size += body.count }
        if case .streamed(_, _, let body, _) = answer { size += body.count }
        if case .conversation(let conversation) = answer { size += conversation.bytes }
        let bytes = size
        let admitted = pending.withLock { waiting in
            guard waiting + bytes <= Self.pendingLimit || waiting == 0 else { return false }
            waiting += bytes
            return true
        }
        guard admitted else {
            let problem = "\(request.method) \(request.rawPath): not recorded, the recorder was still writing over \(Self.pendingLimit >> 20) MiB of earlier answers; send it again once the log shows them written"
            state.withLock { $0.summary.requests += 1; $0.summary.problems.append(problem) }
            log(problem)
            return
        }
        work.async { [self] in
            process(request, answer)
            pending.withLock { $0 -= bytes }
        }
    }

    /// Records an exchange that did not pass through the proxy (an imported capture: HAR).
    public func record(_ request: CapturedRequest, status: Int, headers: [NameValue], body: [UInt8]) {
        record(request, .answered(status: status, headers: headers, body: body))
    }

    private func process(_ request: CapturedRequest, _ answer: CapturedResponse) {
        let status: Int, headers: [NameValue], body: [UInt8]
        var arrivals: [StreamArrival] = []
        var relayed: CapturedConversation?
        switch answer {
        case .answered(let answeredStatus, let answeredHeaders, let answeredBody):
            (status, headers, body) = (answeredStatus, answeredHeaders, answeredBody)
        case .streamed(let answeredStatus, let answeredHeaders, let answeredBody, let pieces):
            (status, headers, body, arrivals) = (answeredStatus, answeredHeaders, answeredBody, pieces)
        case .incomplete(let limit):
            let display = RecordedRequest(request, redactor: redactor, known: knownSecrets).display
            let problem = "\(display): not recorded, its body was over --record-max-body (\(limit) bytes) or did not arrive whole"
            state.withLock { $0.summary.requests += 1; $0.summary.problems.append(problem) }
            log(problem)
            return
        case .unanswered:
            state.withLock { $0.summary.upstreamFailures += 1 }
            return
        case .conversation(let conversation):
            guard !conversation.incomplete else {
                let display = RecordedRequest(request, redactor: redactor, known: knownSecrets).display
                let problem = "\(display): WebSocket conversation not recorded, its messages were over \(CapturedConversation.byteLimit >> 20) MiB"
                state.withLock { $0.summary.requests += 1; $0.summary.problems.append(problem) }
                log(problem)
                return
            }
            (status, headers, body) = (101, [], [])
            relayed = conversation
        }
        let key = RecordedRequest(request, redactor: redactor, known: knownSecrets)
        var answer: RecordedResponse
        if let conversation = relayed {
            answer = RecordedResponse(conversation: RecordedConversation(conversation, redactor: redactor, secrets: key.secrets))
        } else {
            answer = RecordedResponse(status: status, headers: headers, body: body, redactor: redactor, secrets: key.secrets, arrivals: arrivals)
        }
        var target: Fixture?
        if let targets = options.targets { target = targets.target(for: request) }
        if target != nil, answer.storage != .none, !answer.storage.isWebSocket {
            // The body file is the target's sampleData: always a plain file.
            answer.storage = .file(extension: answer.storage.isJSON ? "json" : RecordedResponse.fileExtension(for: answer.contentType))
        }
        let job: WriteJob? = state.withLock { state in
            state.summary.requests += 1
            state.redacted.formUnion(key.redactedNames)
            state.redacted.formUnion(answer.redactedNames)
            for problem in answer.problems { state.summary.problems.append("\(key.display): \(problem)") }
            if var entry = state.entries[key] {
                if entry.keptBy != nil { return nil }
                let differs = answer != entry.outcomes[0]
                if differs && !entry.differed {
                    entry.differed = true
                    state.summary.repeatsWithOtherAnswers += 1
                }
                guard options.sequences else {
                    state.entries[key] = entry
                    if differs { log("\(key.display) answered differently than the first time; kept the first answer (--sequences records every answer)") }
                    return nil
                }
                entry.outcomes.append(answer)
                state.entries[key] = entry
                return WriteJob(display: key.display, name: entry.name!, routeName: target?.name ?? key.display, pattern: key.pattern,
                                outcomes: entry.outcomes, targetNamed: entry.targetNamed)
            }
            let base = target.map(FixtureNaming.name(target:)) ?? FixtureNaming.name(method: request.method, rawPath: key.shownPath)
            switch folder.place(key.pattern, base: base, taken: state.taken) {
            case .keptHandWritten(let file):
                state.entries[key] = Entry(keptBy: file, outcomes: [answer], targetNamed: false)
                if !state.summary.keptHandWritten.contains(file) { state.summary.keptHandWritten.append(file) }
                log("\(key.display): not recorded, \(file) (hand-written) answers it")
                return nil
            case .write(let name):
                state.taken.insert(name)
                state.entries[key] = Entry(name: name, outcomes: [answer], targetNamed: target != nil)
                return WriteJob(display: key.display, name: name, routeName: target?.name ?? key.display, pattern: key.pattern,
                                outcomes: [answer], targetNamed: target != nil)
            }
        }
        guard let job else { return }
        let (document, bodies) = job.files(upstream: upstream)
        beforeWrite()
        do {
            try folder.write(name: job.name, document: document, bodies: bodies)
            state.withLock { _ = $0.files.insert(job.name + ".json") }
            log("recorded \(job.display) → \(folder.path)/\(job.name).json")
        } catch {
            state.withLock { $0.summary.problems.append("\(folder.path)/\(job.name).json: not written (\(error))") }
            log("\(folder.path)/\(job.name).json: not written (\(error))")
        }
    }

    /// Waits until every exchange handed in so far is written, and returns what the recording
    /// did. Blocks the caller: never call it on an event loop (the admin API calls it from its
    /// off-loop work; `finish(then:)` does not block at all).
    public func finish() -> RecordingSummary {
        work.sync {}
        return summary
    }

    /// Calls `done` with the summary once every exchange handed in so far is written, on the
    /// recorder's queue; returns at once.
    public func finish(then done: @escaping @Sendable (RecordingSummary) -> Void) {
        work.async { [self] in done(summary) }
    }

    /// What the recording has done so far (pending writes not counted).
    public var summary: RecordingSummary {
        state.withLock { state in
            var summary = state.summary
            summary.files = state.files.sorted()
            summary.redactedNames = state.redacted.sorted { $0.lowercased() < $1.lowercased() }
            return summary
        }
    }
}

/// One fixture file to (re)write, made under the recorder's lock, encoded outside it.
private struct WriteJob: Sendable {
    let display: String
    let name: String
    let routeName: String
    let pattern: RequestPattern
    let outcomes: [RecordedResponse]
    let targetNamed: Bool

    /// The fixture document and the body files it names.
    func files(upstream: String) -> (document: [UInt8], bodies: [(file: String, bytes: [UInt8])]) {
        let distinct = outcomes.dropFirst().contains { $0 != outcomes[0] }
        let kept = distinct ? outcomes : [outcomes[0]]
        var bodies: [(file: String, bytes: [UInt8])] = []
        let responses = kept.enumerated().map { index, answer -> (key: String, value: JSONValue) in
            if case .stream(let stream) = answer.storage {
                let value = StreamFixtureJSON.stream(stream)
                return ("stream", kept.count == 1 ? value : .object([("stream", value)]))
            }
            if case .websocket(let script) = answer.storage {
                let value = WebSocketFixtureJSON.websocket(script)
                return ("websocket", kept.count == 1 ? value : .object([("websocket", value)]))
            }
            var fields: [(key: String, value: JSONValue)] = [("status", .number(Double(answer.status)))]
            if !answer.headers.isEmpty { fields.append(("headers", FixtureWriter.pairs(answer.headers))) }
            let kind: ResponseDefaults.BodyKind?
            switch answer.storage {
            case .none: kind = nil
            case .json(let json):
                fields.append(("json", json))
                kind = .json
            case .text(let text):
                fields.append(("text", .string(text)))
                kind = .text
            case .file(let ext):
                let file = kept.count == 1 ? "\(name).\(ext)" : "\(name).\(index + 1).\(ext)"
                bodies.append((file, answer.body))
                fields.append(("bodyFile", .string(file)))
                kind = .file(file)
            case .stream, .websocket:
                kind = nil
            }
            // Served as the upstream answered: no header the upstream did not send.
            if !ResponseDefaults.added(for: kind, headers: answer.headers, bodyIsEmpty: answer.body.isEmpty).isEmpty {
                fields.append(("defaultHeaders", .bool(false)))
            }
            return ("response", .object(fields))
        }
        var route: [(key: String, value: JSONValue)] = [("name", .string(routeName)), ("request", FixtureWriter.request(pattern))]
        route.append(kept.count == 1 ? responses[0] : ("responses", .array(responses.map(\.value))))
        let document = JSONValue.object([("recordedFrom", .string(upstream)), ("routes", .array([.object(route)]))])
        return (Array((JSONWriter.write(document, pretty: true) + "\n").utf8), bodies)
    }
}

extension RecordedResponse.Storage {
    var isWebSocket: Bool {
        if case .websocket = self { return true }
        return false
    }

    var isJSON: Bool {
        switch self {
        case .json: return true
        case .file(let ext): return ext == "json"
        default: return false
        }
    }
}

extension RecordedResponse {
    var contentType: String {
        headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
    }
}
