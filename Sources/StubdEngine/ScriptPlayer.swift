import CLibevent
import Dispatch
import StubdHTTP

/// Plays a `StreamScript` on its request's loop: the head through a `ReplyStream`, each step on
/// one re-armed loop timer, then the ending — the body ended, or the connection reset, closed or
/// held (a stall) first.
///
/// Confined to its worker. Owned by the loop's `InFlightRegistry` from the head to the ending (or the stream
/// ending first: the client left, read too slowly, or the server stopped); the timer's argument
/// is an unretained pointer to it. The listener, if any, hears once when the script is over, with
/// the latency from the request's arrival.
final class ScriptPlayer {
    private let script: StreamScript
    private let stream: ReplyStream
    private unowned let worker: Worker
    private let start: UInt64
    private var listener: (any ReplyListener)?
    private var next = 0
    private var timer: OpaquePointer?
    /// Set once the steps are sent and the ending is under way.
    private var ending: StreamScript.Ending?
    /// Waits so far for written bytes to leave before a reset or close.
    private var flushWaits = 0

    private init(script: StreamScript, stream: ReplyStream, worker: Worker, start: UInt64, listener: (any ReplyListener)?) {
        self.script = script
        self.stream = stream
        self.worker = worker
        self.start = start
        self.listener = listener
    }

    /// Sends the head now and schedules the steps.
    static func start(_ script: StreamScript, extraHeaders: [NameValue], headOnly: Bool, on req: OpaquePointer, worker: Worker, start: UInt64,
                      listener: (any ReplyListener)?) {
        let box = PlayerBox()
        let stream = ReplyStream(status: script.status, headers: script.headers + extraHeaders, bufferLimit: script.bufferLimit,
                                 onEnd: { _ in box.player?.streamEnded() })
        StreamWriter.start(stream, extraHeaders: [], headOnly: headOnly, on: req, worker: worker)
        let player = ScriptPlayer(script: script, stream: stream, worker: worker, start: start, listener: listener)
        guard stream.ending == nil, let timer = clev_timer_new(worker.base, onScriptTick, Unmanaged.passUnretained(player).toOpaque()) else {
            player.report()
            return
        }
        player.timer = timer
        box.player = player
        worker.inFlight.hold(player)
        player.arm(script.steps.first?.after ?? script.endingAfter)
    }

    private func arm(_ seconds: Double) {
        guard let timer else { return }
        worker.arm(timer, after: seconds)
    }

    fileprivate func tick() {
        guard stream.ending == nil else {
            stop()
            return
        }
        if let ending {
            perform(ending)
            return
        }
        if next < script.steps.count {
            if let writer = worker.inFlight.writer(of: stream) {
                writer.writeOnLoop(script.steps[next].bytes)
            } else {
                stream.write(script.steps[next].bytes)
            }
            next += 1
            if next < script.steps.count {
                arm(script.steps[next].after)
                return
            }
        }
        ending = script.ending
        arm(script.endingAfter)
    }

    private func perform(_ ending: StreamScript.Ending) {
        switch ending {
        case .finish:
            stream.finish()
            stop()
        case .stall(let seconds):
            // Hold: nothing more goes; then the connection is closed without ending the body.
            self.ending = .close
            arm(seconds ?? worker.configuration.hangCapSeconds)
        case .reset, .close:
            // What was written must leave first: a reset would discard it, a close could cut it.
            let writer = worker.inFlight.writer(of: stream)
            if let writer, !writer.isIdle || stream.queuedBytes > 0, flushWaits < 200 {
                flushWaits += 1
                arm(0.005)
                return
            }
            writer?.abort(reset: ending == .reset)
            stop()
        }
    }

    /// The stream ended under the player (the client left, read too slowly, the server stopped).
    fileprivate func streamEnded() {
        stop()
    }

    /// Frees the timer, forgets the player and tells the listener.
    private func stop() {
        if let timer { event_free(timer) }
        timer = nil
        worker.inFlight.letGo(self)
        report()
    }

    private func report() {
        guard let listener else { return }
        self.listener = nil
        listener.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    let shutdownOrder = InFlightShutdown.afterConnections

    /// At shutdown: the timer goes; the stream ends with the server.
    func serverStopped() {
        if let timer { event_free(timer) }
        timer = nil
    }
}

/// Lets the stream's end reach a player made after it (both on the loop's thread).
/// Weak: the worker's table owns the player, and the stream must not keep it alive.
private final class PlayerBox: @unchecked Sendable {
    weak var player: ScriptPlayer?
}

private func onScriptTick(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<ScriptPlayer>.fromOpaque(arg).takeUnretainedValue().tick()
}
