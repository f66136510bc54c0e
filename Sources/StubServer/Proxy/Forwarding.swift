import StubModel
import Atomics
import Synchronization
import StubdEngine

/// Where requests no stub matches go right now: nowhere (the near-miss 404), an upstream
/// (`--proxy-unmatched`), and whether its answers are recorded (`--record`, `stubd record`, or
/// a recording started through the admin API, which lasts until it is stopped and then gives
/// the start-up choice back).
public final class Forwarding: Sendable {
    /// An upstream and, when recording, its recorder.
    public struct Target: Sendable {
        /// Where misses are sent.
        public var upstream: ProxyUpstream
        /// Records each answered miss; nil forwards only.
        public var recorder: Recorder?

        /// Creates a target.
        public init(upstream: ProxyUpstream, recorder: Recorder? = nil) {
            self.upstream = upstream
            self.recorder = recorder
        }
    }

    /// How HTTPS upstreams named through the admin API are trusted (the serve flags').
    public let upstreamTLS: UpstreamTLS
    /// Where a recording started through the admin API logs its lines.
    public let log: @Sendable (String) -> Void
    private let state: Mutex<(startUp: Target?, started: Target?)>
    /// Whether misses are forwarded now: read on every lookup, so one atomic load instead of
    /// the lock; written under the lock with every change.
    private let forwarding: ManagedAtomic<Bool>

    /// Misses go to `startUp` (nil: answered with the near-miss 404) until a recording is started.
    public init(_ startUp: Target? = nil, upstreamTLS: UpstreamTLS = UpstreamTLS(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.upstreamTLS = upstreamTLS
        self.log = log
        self.state = Mutex((startUp, nil))
        self.forwarding = ManagedAtomic(startUp != nil)
    }

    /// Whether a miss would be forwarded now (without taking the lock).
    var isForwarding: Bool { forwarding.load(ordering: .relaxed) }

    /// The target for a miss now.
    package var current: Target? {
        state.withLock { $0.started ?? $0.startUp }
    }

    /// Starts recording misses through `target` until `stopRecording`.
    package func startRecording(_ target: Target) throws(RecordingError) {
        try state.withLock { state throws(RecordingError) in
            if let running = state.started?.recorder ?? state.startUp?.recorder {
                throw RecordingError.alreadyRecording(out: running.options.out)
            }
            state.started = target
            forwarding.store(true, ordering: .relaxed)
        }
    }

    /// Stops forwarding to the recording the admin API started and returns its recorder, whose
    /// files may still be being written (`Recorder.finish(then:)` says when they are).
    package func stopRecording() throws(RecordingError) -> Recorder {
        let stopped = state.withLock { state -> Recorder? in
            defer {
                state.started = nil
                forwarding.store(state.startUp != nil, ordering: .relaxed)
            }
            return state.started?.recorder
        }
        guard let stopped else { throw RecordingError.notRecording }
        return stopped
    }
}
