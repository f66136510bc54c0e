import StubdHTTP
import StubdHTTP2

/// The loop's side of a `ReplyStream` on one HTTP/2 stream, as `StreamWriter` is on an HTTP/1.1
/// connection: the head as HEADERS, each batch of pieces as DATA under the client's flow control,
/// END_STREAM when the stream finishes — Server-Sent Events, the dashboard's journal events, a
/// streamed body, over h2 as over HTTP/1.1.
///
/// Bounded the same way: the next batch is taken only once the session has sent the last one, so
/// at most `bufferLimit` bytes wait in the stream and one batch in the session. A write past the
/// bound (a client that stopped reading, a window it keeps shut) resets this stream with CANCEL
/// and ends it `.slowReader`; the connection's other streams go on. A client that resets the
/// stream or leaves ends it `.clientLeft`.
///
/// Owned by its `HTTP2Connection` from the head to the end; a mailbox wake-up finds it by its
/// stream in the loop's `InFlightRegistry`.
final class HTTP2StreamWriter: StreamSink {
    let stream: ReplyStream
    private let id: Int32
    private let session: HTTP2Session
    private unowned let worker: Worker
    /// Called after a wake-up wrote something or ended the stream (`true`: the writer is done).
    private let changed: (_ done: Bool) -> Void
    /// A batch is in the session, not yet all sent: the next waits for `sent()`.
    private var awaitingSend = false
    private(set) var done = false

    init(stream: ReplyStream, id: Int32, session: HTTP2Session, worker: Worker, changed: @escaping (_ done: Bool) -> Void) {
        self.stream = stream
        self.id = id
        self.session = session
        self.worker = worker
        self.changed = changed
    }

    /// Sends the head with `headers` and what was written before it; false when the writer is
    /// done at once (HEAD, a status without a body, the stream gone, a stream already finished).
    func begin(headers: [NameValue], headOnly: Bool) -> Bool {
        guard !headOnly, PreparedReply.statusAllowsBody(stream.status) else {
            session.respond(stream: id, status: stream.status, headers: headers, body: nil)
            done = true
            stream.end(.finished)
            return false
        }
        guard session.respondOpen(stream: id, status: stream.status, headers: headers) else {
            done = true
            stream.end(.clientLeft)
            return false
        }
        worker.inFlight.attach(self, to: stream)
        apply(stream.attach(worker.mailbox))
        return !done
    }

    /// A mailbox wake-up: pieces were written, the stream finished or overflowed.
    func flush() {
        guard !done else { return }
        if stream.overflowed {
            stop(.slowReader)
        } else if !awaitingSend {
            apply(stream.takeWork())
        }
        changed(done)
    }

    /// The connection handed the session's frames to the socket: once this stream's last batch
    /// has gone, the next is taken (and a paced producer hears that the client keeps up). True
    /// when the session got more to send (pieces, the end, a reset).
    func sent() -> Bool {
        guard awaitingSend, !done, session.unsentBytes(of: id) == 0 else { return false }
        awaitingSend = false
        let work = stream.takeWork()
        apply(work)
        return !work.pieces.isEmpty || done
    }

    /// The stream closed under the writer: the client reset it, or the connection ended.
    func stopped(_ ending: ReplyStream.Ending) {
        stop(ending)
    }

    private func apply(_ work: ReplyStream.Work) {
        if work.overflowed { return stop(.slowReader) }
        for piece in work.pieces where !session.write(stream: id, piece) {
            return stop(.clientLeft)
        }
        if !work.pieces.isEmpty { awaitingSend = true }
        if work.finish {
            session.finish(stream: id)
            stop(.finished)
        } else if work.pieces.isEmpty {
            stream.drained()
        }
    }

    private func stop(_ ending: ReplyStream.Ending) {
        guard !done else { return }
        done = true
        worker.inFlight.detach(stream)
        if ending == .slowReader { session.reset(stream: id, code: .cancel) }
        stream.end(ending)
    }
}
