import StubModel
import StubdEngine

/// `POST /__stubd/recording/start` and `POST /__stubd/recording/stop`: a test records one
/// scenario from a real API — misses are forwarded to the upstream and written as fixtures
/// until it stops, and the stop answers with the summary.
struct RecordingAdmin {
    let admin: StubAdmin

    static let startFields = ["upstream", "out", "sequences", "keep", "overwrite"]

    /// Body: `{"upstream": "https://api.example.com", "out": "fixtures/recorded"}`, optionally
    /// `"sequences": true`, `"keep": ["X-Request-Id"]`, `"overwrite": true`.
    func start(_ body: [UInt8]) -> PreparedReply {
        guard case .object(let members)? = try? JSONParser.parse(body) else {
            return AdminReply.error("expected a body like {\"upstream\": \"https://api.example.com\", \"out\": \"fixtures/recorded\"}", status: 400)
        }
        if let unknown = members.first(where: { !Self.startFields.contains($0.key) }) {
            return AdminReply.error("\(unknown.key): unknown field; allowed: \(Self.startFields.joined(separator: ", "))", status: 400)
        }
        let value = JSONValue.object(members)
        guard case .string(let url)? = value["upstream"] else {
            return AdminReply.error("upstream: missing; give the real API's URL, e.g. \"https://api.example.com\"", status: 400)
        }
        var options = RecordingOptions()
        if let out = value["out"] {
            guard case .string(let text) = out, !text.isEmpty else { return AdminReply.error("out: expected a folder path", status: 400) }
            options.out = text
        }
        if let sequences = value["sequences"] {
            guard case .bool(let flag) = sequences else { return AdminReply.error("sequences: expected true or false", status: 400) }
            options.sequences = flag
        }
        if let overwrite = value["overwrite"] {
            guard case .bool(let flag) = overwrite else { return AdminReply.error("overwrite: expected true or false", status: 400) }
            options.overwrite = flag
        }
        if let keep = value["keep"] {
            guard case .array(let names) = keep else { return AdminReply.error("keep: expected an array of names", status: 400) }
            options.keep = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        let forwarding = admin.forwarding
        let upstream: ProxyUpstream
        do {
            upstream = try ProxyUpstream(url: url, caFile: forwarding.upstreamTLS.caFile, insecure: !forwarding.upstreamTLS.verify)
        } catch {
            return AdminReply.error("upstream: \(error.description)", status: 400)
        }
        do {
            let recorder = try Recorder(upstream: upstream.description, options: options, log: forwarding.log)
            try forwarding.startRecording(Forwarding.Target(upstream: upstream, recorder: recorder))
            return AdminReply.json(.object([("recording", .bool(true)), ("upstream", .string(upstream.description)),
                                            ("out", .string(options.out)), ("warnings", .array(recorder.warnings.map { .string($0) }))]))
        } catch {
            if case .alreadyRecording = error { return AdminReply.error(error.description, status: 409) }
            return AdminReply.error("out: \(error.description)", status: 400)
        }
    }

    /// Stops the recording the admin API started; answers with its summary once its last file is
    /// written, from the recorder's queue — no thread waits meanwhile, and the loops keep serving.
    func stop(answer: @escaping @Sendable (PreparedReply) -> Void) {
        do {
            let recorder = try admin.forwarding.stopRecording()
            recorder.finish { summary in answer(AdminReply.json(summary.json)) }
        } catch {
            answer(AdminReply.error(error.description, status: 409))
        }
    }
}
