import CLibevent
import Dispatch
import StubdHTTP
import StubdHTTP2

/// Plays a `StreamScript` on one HTTP/2 stream, as `ScriptPlayer` does on an HTTP/1.1
/// connection: the head at once, each step's bytes after its pause on one re-armed loop timer
/// (sent as DATA as the client's flow control allows), then the ending — END_STREAM, or for a
/// reset, a close or a stall past its hold, RST_STREAM INTERNAL_ERROR once what was written has
/// gone (HTTP/2 has no half-closed body to leave hanging). A slow reader whose unsent bytes pass
/// the script's buffer limit is reset (CANCEL), as HTTP/1.1 drops it.
///
/// Owned by its `HTTP2Connection` from the head to the ending (or the stream closing first).
final class HTTP2ScriptPlayer {
    private let script: StreamScript
    private let stream: Int32
    private let session: HTTP2Session
    private unowned let worker: Worker
    private let start: UInt64
    private var listener: (any ReplyListener)?
    /// Called after each write, and once when the player is done (`true`).
    private let changed: (_ done: Bool) -> Void
    private var next = 0
    private var timer: OpaquePointer?
    private var ending: StreamScript.Ending?

    init(script: StreamScript, stream: Int32, session: HTTP2Session, worker: Worker, start: UInt64, listener: (any ReplyListener)?,
         changed: @escaping (_ done: Bool) -> Void) {
        self.script = script
        self.stream = stream
        self.session = session
        self.worker = worker
        self.start = start
        self.listener = listener
        self.changed = changed
    }

    /// Sends the head with `headers` and schedules the steps; false when the stream is gone.
    func begin(headers: [NameValue]) -> Bool {
        guard session.respondOpen(stream: stream, status: script.status, headers: headers),
              let made = clev_timer_new(worker.base, onHTTP2ScriptTick, Unmanaged.passUnretained(self).toOpaque()) else {
            session.reset(stream: stream, code: .internalError)
            report()
            return false
        }
        timer = made
        arm(script.steps.first?.after ?? script.endingAfter)
        return true
    }

    private func arm(_ seconds: Double) {
        guard let timer else { return }
        worker.arm(timer, after: seconds)
    }

    fileprivate func tick() {
        if let ending { return perform(ending) }
        if next < script.steps.count {
            guard session.write(stream: stream, script.steps[next].bytes) else { return stop() }
            next += 1
            if session.unsentBytes(of: stream) > script.bufferLimit {
                session.reset(stream: stream, code: .cancel)
                return stop()
            }
            changed(false)
            if next < script.steps.count { return arm(script.steps[next].after) }
        }
        ending = script.ending
        arm(script.endingAfter)
    }

    private func perform(_ ending: StreamScript.Ending) {
        switch ending {
        case .finish:
            session.finish(stream: stream)
            stop()
        case .stall(let seconds):
            self.ending = .close
            arm(seconds ?? worker.configuration.hangCapSeconds)
        case .reset, .close:
            session.failAfterWritten(stream: stream)
            stop()
        }
    }

    /// The stream closed under the player (the client reset it, the connection ended).
    func streamClosed() {
        guard timer != nil else { return }
        stop(notify: false)
    }

    private func stop(notify: Bool = true) {
        if let timer { event_free(timer) }
        timer = nil
        report()
        if notify { changed(true) }
    }

    private func report() {
        guard let listener else { return }
        self.listener = nil
        listener.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9)
    }
}

private func onHTTP2ScriptTick(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let player = Unmanaged<HTTP2ScriptPlayer>.fromOpaque(arg).takeUnretainedValue()
    // Kept alive through the tick: its ending takes it out of its connection's table.
    withExtendedLifetime(player) { player.tick() }
}
