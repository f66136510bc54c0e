import CLibevent
import StubdHTTP
import StubdSystem

/// The one place `Fault`s become socket behaviour on a live evhttp connection
/// (libevent-notes §4): reset, empty, bytes then close (truncated, badChunk, garbage), and hang
/// (a capped timer held by the worker) — or, for a fault step, a response in place of a reset, an
/// empty reply or a hang's end (`FaultSending.beforeStatus` or `.cutShort`).
///
/// Every path frees the connection (and with it the request) or hands it to a timer that will;
/// nothing touches `req` afterwards.
enum LibeventFaultInjector {
    /// The bytes sent by `garbage`: a status line followed by a header line that is not a header,
    /// so clients fail while parsing the response (curl 8 "Weird server reply") rather than
    /// calling it an HTTP/0.9 reply (curl 1, which URLSession on Linux reports as "unsupported URL").
    static let garbageBytes: [UInt8] = Array("HTTP/1.1 200 OK\r\nstubd garbage fault, not a header line\r\n\r\n".utf8)
    /// A head that promises 64 bytes of body; none follow.
    static let truncatedBytes: [UInt8] = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 64\r\n\r\n".utf8)
    /// A chunked body whose chunk size is not hexadecimal.
    static let badChunkBytes: [UInt8] = Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz stubd bad chunk\r\n".utf8)
    /// In place of a fault step that sends no byte, for a route that places its failure in the
    /// body: a head promising one byte of body, then the close. Every client measured reports it
    /// as a transport error once it reads the body, and none re-sends it (conformance/encodings.py).
    static let cutBodyBytes: [UInt8] = Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\n".utf8)
    /// In place of a fault step that sends no byte, by default and for HEAD: a `502` head with
    /// two different lengths, an unrecoverable framing error (RFC 9112 §6.3), then the close. Both
    /// lengths are above zero, so a client that takes either one finds the body cut short (Java's
    /// `HttpClient` read `0`/`1` as a complete 502). Every client measured fails a GET before any
    /// status and none re-sends it; for HEAD curl, Java and URLSession on Linux read a `502`
    /// (conformance/encodings.py, docs/FAULTS.md).
    static let brokenFramingBytes: [UInt8] = Array("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n".utf8)
    /// For HEAD, whose reply has no body to cut: a status line cut short. (A head cut inside the
    /// header lines is accepted as complete by curl and Python.)
    static let cutHeadBytes: [UInt8] = Array("HTTP/1.1 2".utf8)

    /// `bytes` with `headers` added after the status line (the plan's extra headers: CORS), so a
    /// cross-origin page's browser reports the fault itself — a length mismatch, a bad chunk —
    /// and not a missing `Access-Control-Allow-Origin`.
    static func withHeaders(_ bytes: [UInt8], _ headers: [NameValue]) -> [UInt8] {
        guard !headers.isEmpty, let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return bytes }
        let lines = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        return Array(bytes[...lineEnd]) + Array(lines.utf8) + Array(bytes[(lineEnd + 1)...])
    }

    static func inject(_ fault: Fault, on req: OpaquePointer, worker: Worker, extraHeaders: [NameValue] = [], sending: FaultSending = .authored) {
        if fault == .hang {
            let plan = ReplyPlan(content: .fault(.hang, as: sending), extraHeaders: extraHeaders)
            worker.schedule(PendingExchange(request: req, plan: plan, start: 0, listener: nil, kind: .closeAfterHang),
                            after: worker.configuration.hangCapSeconds)
            return
        }
        guard let connection = evhttp_request_get_connection(req) else { return }
        if sending.replacesNoByte(fault) {
            write(withHeaders(stepBytes(for: req, sending), extraHeaders), thenClose: connection)
            return
        }
        switch fault {
        case .reset:
            reset(connection)
        case .empty, .hang:
            evhttp_connection_free(connection)
        case .garbage:
            write(withHeaders(garbageBytes, extraHeaders), thenClose: connection)
        case .truncated, .badChunk:
            // A cut status line has no header lines to add to.
            if evhttp_request_get_command(req) == EVHTTP_REQ_HEAD {
                write(cutHeadBytes, thenClose: connection)
            } else {
                write(withHeaders(fault == .truncated ? truncatedBytes : badChunkBytes, extraHeaders), thenClose: connection)
            }
        }
    }

    /// RST instead of FIN: linger 0, then swap the fd number to an inert socket (`dup2`) so
    /// evhttp's own `shutdown(SHUT_WR)` cannot send a FIN first; the last close of the real socket
    /// sends the reset. If a step fails the connection is still closed (a FIN: the client sees
    /// an empty reply rather than a reset).
    static func reset(_ connection: OpaquePointer) {
        let fd = bufferevent_getfd(evhttp_connection_get_bufferevent(connection))
        if fd >= 0, (try? System.setLingerZero(fd)) != nil, let placeholder = try? System.inertSocket() {
            try? System.replace(fd, with: placeholder)
            System.close(placeholder)
        }
        evhttp_connection_free(connection)
    }

    /// What a fault step sends for `req` in place of no byte: the framing broken, or — for a
    /// route that places its failure in the body, unless the answer has none (HEAD) — the body cut.
    private static func stepBytes(for req: OpaquePointer, _ sending: FaultSending) -> [UInt8] {
        sending == .cutShort && evhttp_request_get_command(req) != EVHTTP_REQ_HEAD ? cutBodyBytes : brokenFramingBytes
    }

    /// A hang's end at its cap: a close, or for a fault step the response cut short.
    static func endHang(_ connection: OpaquePointer, request req: OpaquePointer, plan: ReplyPlan) {
        if case .fault(let fault, let sending) = plan.content, sending.replacesNoByte(fault) {
            write(withHeaders(stepBytes(for: req, sending), plan.extraHeaders), thenClose: connection)
        } else {
            evhttp_connection_free(connection)
        }
    }

    /// Takes the bufferevent away from evhttp, writes `bytes`, and frees the connection (a FIN)
    /// once they have left (or the peer failed).
    private static func write(_ bytes: [UInt8], thenClose connection: OpaquePointer) {
        guard let bev = evhttp_connection_get_bufferevent(connection) else {
            evhttp_connection_free(connection)
            return
        }
        let context = UnsafeMutableRawPointer(connection)
        bufferevent_setcb(bev, nil, onBytesWritten, onBytesEvent, context)
        let written = bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        guard written == 0, bufferevent_enable(bev, Int16(EV_WRITE)) == 0 else {
            evhttp_connection_free(connection)
            return
        }
    }
}

private func onBytesWritten(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let bev, let arg, evbuffer_get_length(bufferevent_get_output(bev)) == 0 else { return }
    evhttp_connection_free(OpaquePointer(arg))
}

private func onBytesEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    evhttp_connection_free(OpaquePointer(arg))
}
