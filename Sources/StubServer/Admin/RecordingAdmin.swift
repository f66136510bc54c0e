import StubModel
import StubdEngine

/// `POST /__stubd/recording/start` and `POST /__stubd/recording/stop`: a test records one
/// scenario from a real API — misses are forwarded to the upstream and written as fixtures
/// until it stops, and the stop answers with the summary.
struct RecordingAdmin {
    let admin: StubAdmin

    /// Starts recording misses through the upstream `start` names, into its folder.
    func start(_ start: RecordingStart) throws(AdminRefusal) -> RecordingStarted {
        let forwarding = admin.forwarding
        let upstream: ProxyUpstream
        do {
            upstream = try ProxyUpstream(url: start.upstream, caFile: forwarding.upstreamTLS.caFile, insecure: !forwarding.upstreamTLS.verify)
        } catch {
            throw AdminRefusal("upstream: \(error.description)")
        }
        do {
            let recorder = try Recorder(upstream: upstream.description, options: start.options, log: forwarding.log)
            try forwarding.startRecording(Forwarding.Target(upstream: upstream, recorder: recorder))
            return RecordingStarted(upstream: upstream.description, out: start.options.out, warnings: recorder.warnings)
        } catch {
            if case .alreadyRecording = error { throw AdminRefusal(error.description, status: 409) }
            throw AdminRefusal("out: \(error.description)")
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
