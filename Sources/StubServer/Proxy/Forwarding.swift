package import StubModel
import Atomics
import Synchronization
import StubdEngine

/// Where requests no stub matches go right now: nowhere (the near-miss 404), an upstream
/// (`--proxy-unmatched`), and whether its answers are recorded (`--record`, `stubd record`, or
/// a recording started through the admin API, which lasts until it is stopped and then gives
/// the start-up choice back). A recording started with `X-Stubd-Session` takes only that
/// session's misses — tests recording in parallel never forward each other's — and one started
/// without a session takes every session's that has none of its own.
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
    private let state: Mutex<(startUp: Target?, started: [SessionID?: Target])>
    /// Whether any miss may be forwarded now: read on every lookup, so one atomic load instead of
    /// the lock; written under the lock with every change.
    private let forwarding: ManagedAtomic<Bool>

    /// Misses go to `startUp` (nil: answered with the near-miss 404) until a recording is started.
    public init(_ startUp: Target? = nil, upstreamTLS: UpstreamTLS = UpstreamTLS(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.upstreamTLS = upstreamTLS
        self.log = log
        self.state = Mutex((startUp, [:]))
        self.forwarding = ManagedAtomic(startUp != nil)
    }

    /// Whether a miss might be forwarded now (without taking the lock): `current(for:)` says.
    var isForwarding: Bool { forwarding.load(ordering: .relaxed) }

    /// The target for a miss of `session` now: its own recording, else one started without a
    /// session, else the start-up upstream.
    package func current(for session: SessionID?) -> Target? {
        state.withLock { state in
            (session.flatMap { state.started[$0] }) ?? state.started[nil] ?? state.startUp
        }
    }

    /// The target of a miss without a session (the server-wide view: health, state).
    package var current: Target? { current(for: nil) }

    /// Starts recording the misses of `session` (nil: of every session without a recording of
    /// its own) through `target` until `stopRecording`.
    package func startRecording(_ target: Target, session: SessionID? = nil) throws(RecordingError) {
        try state.withLock { state throws(RecordingError) in
            if let running = state.started[session]?.recorder ?? (session == nil ? state.startUp?.recorder : nil) {
                throw RecordingError.alreadyRecording(out: running.options.out)
            }
            state.started[session] = target
            forwarding.store(true, ordering: .relaxed)
        }
    }

    /// Stops forwarding to the recording the admin API started for `session` and returns its
    /// recorder, whose files may still be being written (`Recorder.finish(then:)` says when they are).
    package func stopRecording(session: SessionID? = nil) throws(RecordingError) -> Recorder {
        let stopped = state.withLock { state -> Recorder? in
            defer { forwarding.store(state.startUp != nil || !state.started.isEmpty, ordering: .relaxed) }
            return state.started.removeValue(forKey: session)?.recorder
        }
        guard let stopped else { throw RecordingError.notRecording }
        return stopped
    }
}
