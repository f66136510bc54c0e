import StubdHTTP
import StubdHTTP2

/// What each `Fault` is on one HTTP/2 stream. A fault fails its stream only: the connection and
/// the other streams on it go on, as a real server's failing request leaves its neighbours alone.
///
/// | fault | on the stream |
/// |---|---|
/// | `reset` | RST_STREAM INTERNAL_ERROR before any HEADERS |
/// | `empty` | RST_STREAM PROTOCOL_ERROR before any HEADERS (no response at all, as HTTP/1.1's empty reply) |
/// | `hang` | nothing until `--hang-cap`, then RST_STREAM INTERNAL_ERROR (Node reads CANCEL as an ordinary end) |
/// | `truncated` | HEADERS `200` with `content-length: 64`, then RST_STREAM INTERNAL_ERROR instead of the body |
/// | `badChunk`, `garbage` | HEADERS `200`, then RST_STREAM INTERNAL_ERROR (HTTP/2 has no chunks or header lines to break) |
///
/// Neither code is one a client re-sends a request after (only REFUSED_STREAM, and streams a
/// GOAWAY left unprocessed, say a request was not processed: RFC 9113 §8.7), so a fault step goes
/// as authored, before any HEADERS — HTTP/1.1's "before the status" — and a route's
/// `"faultSteps": "inBody"` step sends the `200` HEADERS first.
enum HTTP2Fault {
    /// Fails `stream` as `fault` says; `hold` waits on a loop timer for the hang's cap.
    static func apply(_ fault: Fault, sending: FaultSending, on stream: Int32, session: HTTP2Session, extraHeaders: [NameValue],
                      hangCap: Double, hold: (Double, @escaping () -> Void) -> Void) {
        switch fault {
        case .reset, .empty:
            if sending == .cutShort && sending.replacesNoByte(fault) {
                session.respondThenFail(stream: stream, status: 200, headers: extraHeaders)
            } else {
                session.reset(stream: stream, code: fault == .reset ? .internalError : .protocolError)
            }
        case .hang:
            hold(hangCap) {
                if sending == .cutShort && sending.replacesNoByte(fault) {
                    session.respondThenFail(stream: stream, status: 200, headers: extraHeaders)
                } else {
                    session.reset(stream: stream, code: .internalError)
                }
            }
        case .truncated:
            session.respondThenFail(stream: stream, status: 200, headers: [NameValue("content-type", "text/plain"), NameValue("content-length", "64")] + extraHeaders)
        case .badChunk, .garbage:
            session.respondThenFail(stream: stream, status: 200, headers: [NameValue("content-type", "text/plain")] + extraHeaders)
        }
    }
}
