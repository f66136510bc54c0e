import StubdHTTP
import StubdHTTP2

/// What each `Fault` is on one HTTP/2 stream. A fault fails its stream only: the connection and
/// the other streams on it go on, as a real server's failing request leaves its neighbours alone.
///
/// | fault | on the stream |
/// |---|---|
/// | `reset` | RST_STREAM INTERNAL_ERROR before any HEADERS (a step: see below) |
/// | `empty` | RST_STREAM PROTOCOL_ERROR before any HEADERS (no response at all, as HTTP/1.1's empty reply) |
/// | `hang` | nothing until `--hang-cap`, then RST_STREAM INTERNAL_ERROR (Node reads CANCEL as an ordinary end) |
/// | `truncated` | HEADERS `200` with `content-length: 64`, then RST_STREAM INTERNAL_ERROR instead of the body |
/// | `badChunk`, `garbage` | HEADERS `200`, then RST_STREAM INTERNAL_ERROR (HTTP/2 has no chunks or header lines to break) |
///
/// A fault **step** that sends no byte (`reset`, `empty`, a `hang` at its cap: `FaultSending`)
/// goes as a head, then the reset, because OkHttp 3 re-sends a GET or HEAD once, on a new
/// connection, after RST_STREAM before any HEADERS (INTERNAL_ERROR or PROTOCOL_ERROR alike), so
/// the re-send would take the sequence's next step. `"faultSteps": "beforeStatus"` (the default)
/// is HEADERS `502` promising one byte, then RST_STREAM INTERNAL_ERROR; `"inBody"` the same with
/// `200`. Every client measured reads either as an error with one attempt (curl, httpx, Node
/// `http2`, Java's HttpClient, OkHttp: `conformance/h2_encodings.py`, docs/HTTP2.md "Faults").
enum HTTP2Fault {
    /// Fails `stream` as `fault` says; `hold` waits on a loop timer for the hang's cap.
    static func apply(_ fault: Fault, sending: FaultSending, on stream: Int32, session: HTTP2Session, extraHeaders: [NameValue],
                      hangCap: Double, hold: (Double, @escaping () -> Void) -> Void) {
        switch fault {
        case .reset, .empty:
            failWithoutByte(fault, sending: sending, on: stream, session: session, extraHeaders: extraHeaders)
        case .hang:
            hold(hangCap) { failWithoutByte(fault, sending: sending, on: stream, session: session, extraHeaders: extraHeaders) }
        case .truncated:
            session.respondThenFail(stream: stream, status: 200, headers: [NameValue("content-type", "text/plain"), NameValue("content-length", "64")] + extraHeaders)
        case .badChunk, .garbage:
            session.respondThenFail(stream: stream, status: 200, headers: [NameValue("content-type", "text/plain")] + extraHeaders)
        }
    }

    /// A fault that sends no byte: as authored, a reset before any HEADERS; as a step, a head
    /// promising one byte (`502` before the status, `200` cut short), then the reset.
    private static func failWithoutByte(_ fault: Fault, sending: FaultSending, on stream: Int32, session: HTTP2Session, extraHeaders: [NameValue]) {
        switch sending {
        case .authored:
            session.reset(stream: stream, code: fault == .empty ? .protocolError : .internalError)
        case .beforeStatus, .cutShort:
            let status = sending == .beforeStatus ? 502 : 200
            session.respondThenFail(stream: stream, status: status, headers: [NameValue("content-type", "text/plain"), NameValue("content-length", "1")] + extraHeaders)
        }
    }
}
