import CLibevent
import StubdSystem
import StubModel

/// Sends a reply's body in pieces on a repeating loop timer (`Dribble`): headers (with the full
/// Content-Length, so the body is framed raw, not chunked) at once, then one piece per tick.
///
/// Confined to its worker. Owned by `Worker.dribbles` from start to the last piece (or the
/// client leaving, or shutdown); the timer's argument is an unretained pointer to it. evhttp
/// keeps reading while streaming, so a client that leaves is noticed at the next tick
/// (`evhttp_request_get_connection` turns nil) and the request is then only freed.
final class Dribbler {
    private let request: OpaquePointer
    private let body: [UInt8]
    private let chunks: Int
    private var sent = 0
    private var timer: OpaquePointer?
    private unowned let worker: Worker

    private init(request: OpaquePointer, body: [UInt8], chunks: Int, worker: Worker) {
        self.request = request
        self.body = body
        self.chunks = max(1, min(chunks, body.count))
        self.worker = worker
    }

    /// Writes status and headers now and schedules the pieces.
    static func start(_ reply: PreparedReply, extraHeaders: [NameValue], dribble: Dribble, on req: OpaquePointer, worker: Worker) {
        let headers = evhttp_request_get_output_headers(req)
        for header in reply.headers + extraHeaders {
            evhttp_add_header(headers, header.name, header.value)
        }
        evhttp_add_header(headers, "Content-Length", String(reply.body.count))
        evhttp_send_reply_start(req, Int32(reply.status), nil)
        let dribbler = Dribbler(request: req, body: reply.body, chunks: dribble.chunks, worker: worker)
        dribbler.timer = event_new(worker.base, -1, Int16(EV_PERSIST), onDribbleTick, Unmanaged.passUnretained(dribbler).toOpaque())
        worker.dribbles[ObjectIdentifier(dribbler)] = dribbler
        var interval = System.timeValue(seconds: dribble.seconds / Double(dribbler.chunks))
        event_base_update_cache_time(worker.base)
        event_add(dribbler.timer, &interval)
    }

    fileprivate func tick() {
        guard evhttp_request_get_connection(request) != nil else {
            finish()
            return
        }
        let start = body.count * sent / chunks
        sent += 1
        let end = body.count * sent / chunks
        if let buffer = evbuffer_new() {
            body[start..<end].withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
            evhttp_send_reply_chunk(request, buffer)
            evbuffer_free(buffer)
        }
        if sent == chunks { finish() }
    }

    /// Ends the reply (which frees the request, or only frees it if the client left) and drops
    /// the timer and this object.
    private func finish() {
        evhttp_send_reply_end(request)
        cancel()
    }

    /// Frees the timer and forgets this dribble (also used at shutdown, where evhttp_free frees
    /// the request with its connection).
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
