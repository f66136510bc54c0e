import AdminContract
import Recording
import StubModel
import StubServer
import StubdEngine

/// `POST /__stubd/recording/start` and `POST /__stubd/recording/stop`: a test records one
/// scenario from a real API — misses are forwarded to the upstream and written as fixtures
/// until it stops, and the stop answers with the summary. With `X-Stubd-Session`, only that
/// session's misses (each session records on its own, so parallel tests can).
struct RecordingAdmin {
    let state: SessionStore

    /// Starts recording misses through the upstream `start` names, into its folder.
    func start(_ start: RecordingStart, session: SessionID?) throws(AdminRefusal) -> RecordingStarted {
        let forwarding = state.forwarding
        let upstream: ProxyUpstream
        do {
            upstream = try ProxyUpstream(url: start.upstream, caFile: forwarding.upstreamTLS.caFile, insecure: !forwarding.upstreamTLS.verify)
        } catch {
            throw AdminRefusal("upstream: \(error.description)")
        }
        var options = RecordingOptions()
        if let out = start.out { options.out = out }
        options.sequences = start.sequences
        options.overwrite = start.overwrite
        options.keep = start.keep
        do {
            let recorder = try Recorder(upstream: upstream.description, options: options, log: forwarding.log)
            try forwarding.startRecording(Forwarding.Target(upstream: upstream, recorder: recorder), session: session)
            return RecordingStarted(upstream: upstream.description, out: options.out, warnings: recorder.warnings)
        } catch {
            if case .alreadyRecording = error { throw AdminRefusal(error.description, status: 409) }
            throw AdminRefusal("out: \(error.description)")
        }
    }

    /// Stops the recording the admin API started; answers with its summary once its last file is
    /// written, from the recorder's queue — no thread waits meanwhile, and the loops keep serving.
    func stop(session: SessionID?, answer: @escaping @Sendable (Result<JSONBody, AdminRefusal>) -> Void) {
        do {
            let recorder = try state.forwarding.stopRecording(session: session)
            recorder.finish { summary in answer(.success(JSONBody(summary.json))) }
        } catch {
            answer(.failure(AdminRefusal(error.description, status: 409)))
        }
    }
}
