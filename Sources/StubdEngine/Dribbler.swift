import CLibevent
import StubdSystem
import StubModel

/// Sends a reply's body in pieces on a repeating loop timer (`Dribble`): a `ReplyStream` whose
/// head carries the full Content-Length (so the body is framed raw, not chunked), and one piece
/// written to it per tick.
///
/// Confined to its worker. Owned by `Worker.dribbles` from start to the last piece (or the
/// stream ending first: the client left, or shutdown); the timer's argument is an unretained
/// pointer to it. The stream notices a client leaving when its connection closes, and the next
/// tick then stops the timer.
final class Dribbler {
    private let stream: ReplyStream
    private let body: [UInt8]
    private let chunks: Int
    private var sent = 0
    private var timer: OpaquePointer?
    private unowned let worker: Worker

    private init(stream: ReplyStream, body: [UInt8], chunks: Int, worker: Worker) {
        self.stream = stream
        self.body = body
        self.chunks = max(1, min(chunks, body.count))
        self.worker = worker
    }

    /// Writes status and headers now and schedules the pieces.
    static func start(_ reply: PreparedReply, extraHeaders: [NameValue], dribble: Dribble, on req: OpaquePointer, worker: Worker) {
        // The whole body may wait: a dribble is paced by its timer, not by the client.
        let stream = ReplyStream(status: reply.status, headers: reply.headers + extraHeaders + [NameValue("Content-Length", String(reply.body.count))],
                                 bufferLimit: reply.body.count)
        StreamWriter.start(stream, extraHeaders: [], headOnly: false, on: req, worker: worker)
        guard stream.ending == nil else { return }
        let dribbler = Dribbler(stream: stream, body: reply.body, chunks: dribble.chunks, worker: worker)
        dribbler.timer = event_new(worker.base, -1, Int16(EV_PERSIST), onDribbleTick, Unmanaged.passUnretained(dribbler).toOpaque())
        worker.dribbles[ObjectIdentifier(dribbler)] = dribbler
        var interval = System.timeValue(seconds: dribble.seconds / Double(dribbler.chunks))
        event_base_update_cache_time(worker.base)
        event_add(dribbler.timer, &interval)
    }

    fileprivate func tick() {
        guard stream.ending == nil else {
            cancel()
            return
        }
        let start = body.count * sent / chunks
        sent += 1
        let end = body.count * sent / chunks
        stream.write(Array(body[start..<end]))
        if sent == chunks {
            stream.finish()
            cancel()
        }
    }

    /// Frees the timer and forgets this dribble (also used at shutdown, where the stream ends
    /// with the server).
    func cancel() {
        if let timer { event_free(timer) }
        timer = nil
        worker.dribbles[ObjectIdentifier(self)] = nil
    }
}

private func onDribbleTick(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<Dribbler>.fromOpaque(arg).takeUnretainedValue().tick()
}
