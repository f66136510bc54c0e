import CLibevent
import StubdHTTP
import StubdSystem

/// The loop's side of a `ReplyStream`: sends the head, hands queued pieces to evhttp as chunks,
/// and ends the reply — when the stream finishes, the client leaves, the client reads too slowly,
/// or the server stops.
///
/// Confined to its worker. Owned by the loop's `InFlightRegistry` from the head to the end; a closing
/// connection finds its stream through `Worker.streamConnections`.
final class StreamWriter: StreamSink {
    let stream: ReplyStream
    private let request: OpaquePointer
    let connection: OpaquePointer
    private unowned let worker: Worker
    /// A batch handed to evhttp that the client has not taken yet.
    private var inFlight = false

    private init(stream: ReplyStream, request: OpaquePointer, connection: OpaquePointer, worker: Worker) {
        self.stream = stream
        self.request = request
        self.connection = connection
        self.worker = worker
    }

    /// Sends the head of `stream` on `req` and starts relaying its pieces (none for HEAD).
    static func start(_ stream: ReplyStream, extraHeaders: [NameValue], headOnly: Bool, on req: OpaquePointer, worker: Worker) {
        let output = evhttp_request_get_output_headers(req)
        for header in stream.headers + extraHeaders {
            evhttp_add_header(output, header.name, header.value)
        }
        guard let connection = evhttp_request_get_connection(req) else {
            evhttp_send_reply_end(req)
            stream.end(.clientLeft)
            return
        }
        evhttp_send_reply_start(req, Int32(stream.status), nil)
        if headOnly || !PreparedReply.statusAllowsBody(stream.status) {
            evhttp_send_reply_end(req)
            stream.end(.finished)
            return
        }
        let writer = StreamWriter(stream: stream, request: req, connection: connection, worker: worker)
        worker.register(writer)
        writer.apply(stream.attach(worker.mailbox))
    }

    /// The mailbox woke the loop for this stream, or the client took the last batch.
    func flush() {
        if stream.overflowed {
            drop(.slowReader)
            return
        }
        guard !inFlight else { return }
        apply(stream.takeWork())
    }

    /// Writes `bytes` now, from the loop's own thread (a script's timer): straight to evhttp when
    /// nothing waits, else through the stream's queue like any other write — one loop turn and one
    /// mailbox wake-up fewer per event.
    func writeOnLoop(_ bytes: [UInt8]) {
        guard !inFlight, stream.queuedBytes == 0, stream.ending == nil else {
            stream.write(bytes)
            return
        }
        apply(ReplyStream.Work(pieces: [bytes], finish: false, overflowed: false))
    }

    /// Whether every batch handed to evhttp has been written to the socket.
    var isIdle: Bool { !inFlight }

    /// Fails the reply mid-body: a TCP reset (`reset`), or a close (FIN) without the body's end.
    /// The stream ends as if the client had left.
    func abort(reset: Bool) {
        worker.unregister(self)
        if reset {
            LibeventFaultInjector.reset(connection)
        } else {
            evhttp_connection_free(connection)
        }
        stream.end(.clientLeft)
    }

    /// evhttp wrote the last batch to the socket.
    func drained() {
        inFlight = false
        flush()
    }

    private func apply(_ work: ReplyStream.Work) {
        guard evhttp_request_get_connection(request) != nil else {
            clientLeft()
            return
        }
        if work.overflowed {
            drop(.slowReader)
            return
        }
        // A client that stopped reading leaves what it was sent in the kernel, where no queue
        // here sees it: past the bound there too, it is a slow reader.
        if !work.pieces.isEmpty, !stream.isPaced, unacknowledgedBytes() > stream.bufferLimit {
            drop(.slowReader)
            return
        }
        if !work.pieces.isEmpty, let buffer = evbuffer_new() {
            worker.budget.heldActive(ObjectIdentifier(self))
            for piece in work.pieces {
                piece.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
            }
            inFlight = true
            // One chunk per batch; evhttp calls back when the socket has taken it.
            evhttp_send_reply_chunk_with_cb(request, buffer, onStreamDrained, Unmanaged.passUnretained(worker).toOpaque())
            evbuffer_free(buffer)
        }
        if work.finish {
            worker.unregister(self)
            evhttp_send_reply_end(request)
            stream.end(.finished)
        } else if !inFlight {
            stream.drained()
        }
    }

    /// Bytes sent to the client that it has not taken: the connection's output buffer and the
    /// socket's unacknowledged bytes.
    private func unacknowledgedBytes() -> Int {
        guard let bev = evhttp_connection_get_bufferevent(connection) else { return 0 }
        let buffered = bufferevent_get_output(bev).map { evbuffer_get_length($0) } ?? 0
        let fd = bufferevent_getfd(bev)
        return buffered + (fd >= 0 ? System.unacknowledgedBytes(fd) ?? 0 : 0)
    }

    /// The client's connection closed (its close callback, on the loop). evhttp detached the
    /// request from it; ending the reply frees the request.
    func clientLeft() {
        worker.unregister(self)
        if evhttp_request_get_connection(request) == nil { evhttp_send_reply_end(request) }
        stream.end(.clientLeft)
    }

    /// Disconnects the client; freeing the connection frees the request with it.
    private func drop(_ ending: ReplyStream.Ending) {
        worker.unregister(self)
        evhttp_connection_free(connection)
        stream.end(ending)
    }

    /// The server is stopping: `evhttp_free` frees the request with its connection.
    func serverStopped() {
        stream.end(.serverStopped)
    }
}

extension Worker {
    fileprivate func register(_ writer: StreamWriter) {
        inFlight.hold(writer)
        budget.hold(ObjectIdentifier(writer)) { [unowned writer] in writer.abort(reset: false) }
    }

    fileprivate func unregister(_ writer: StreamWriter) {
        inFlight.letGo(writer)
        budget.letGo(ObjectIdentifier(writer))
    }

    /// The client took a stream's batch (`onStreamDrained`).
    fileprivate func streamDrained(_ connection: OpaquePointer) {
        inFlight.writer(on: connection)?.drained()
    }

    /// A mailbox wake-up for `stream`; nothing when it has ended meanwhile.
    func flush(_ stream: ReplyStream) {
        inFlight.sink(of: stream)?.flush()
    }

    /// A connection closed (`ConnectionTracker`): a stream on it learns that its client left.
    func connectionClosed(_ connection: OpaquePointer) {
        inFlight.writer(on: connection)?.clientLeft()
    }
}

/// evhttp's "chunk written" callback; the argument is the worker (alive as long as its loop).
private func onStreamDrained(_ connection: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let connection, let arg else { return }
    Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().streamDrained(connection)
}
