/// A way of failing on the wire instead of answering, so the client reports a network error.
///
/// Moya's `.networkError(NSError)` has no HTTP form; stubd picks the fault whose error is closest
/// across the clients teams use (`forNetworkError`, measured by `make conformance`).
public enum Fault: String, Sendable, CaseIterable {
    /// TCP reset (RST) with no response: "connection reset" in every client, URLSession
    /// `NSURLErrorNetworkConnectionLost`, curl 56.
    case reset
    /// Close the connection (FIN) without a byte of response: curl 52 "Empty reply from server",
    /// URLSession `NSURLErrorBadServerResponse`.
    case empty
    /// A status line and head promising a body (`Content-Length: 64`), no body, then close: a
    /// cut-off transfer in every client (curl 18); for HEAD, whose reply has no body, the status
    /// line is cut off instead.
    case truncated
    /// A chunked response whose first chunk size is not hexadecimal, then close: a protocol error
    /// in every client (curl 56 "Illegal or missing hexadecimal sequence"); for HEAD, as `truncated`.
    case badChunk
    /// `HTTP/1.1 200 OK` then a line that is not a header, then close. Only curl and Node report
    /// an error; Python requests, Java, OkHttp and Chromium read a 200 with an empty body. Kept for
    /// fixtures that name it; no network error maps to it.
    case garbage
    /// Read the request, never answer; the server drops the connection after its hang cap
    /// (default 75 s, longer than URLSession's 60 s request timeout): `NSURLErrorTimedOut`.
    case hang

    /// True when the client gets no byte of response: clients re-send an idempotent request after
    /// such a failure on a reused connection (and Java's HttpClient even on a fresh one), so a
    /// sequence step with this fault needs a fresh connection to be seen (`StubHandler`).
    public var sendsNoResponse: Bool {
        switch self {
        case .reset, .empty, .hang: return true
        case .truncated, .badChunk, .garbage: return false
        }
    }

    /// Whether it sends a response head before failing (truncated, badChunk, garbage): the head
    /// carries the route's CORS headers, so a cross-origin page's browser reports the fault.
    public var sendsBytes: Bool { !sendsNoResponse }

    /// The fault for an `NSError` from a Moya `.networkError`:
    ///
    /// | error (NSURLErrorDomain) | fault |
    /// |---|---|
    /// | -1001 TimedOut | hang |
    /// | -1005 NetworkConnectionLost | reset |
    /// | -1011 BadServerResponse | empty (URLSession reports exactly -1011) |
    /// | -1014 ZeroByteResource | truncated (a length promised, no data: Apple's definition of -1014) |
    /// | -1017 CannotParseResponse | badChunk (a parse error in every client) |
    /// | anything else, any other domain | reset |
    public static func forNetworkError(domain: String, code: Int) -> Fault {
        guard domain == "NSURLErrorDomain" else { return .reset }
        switch code {
        case -1001: return .hang
        case -1005: return .reset
        case -1011: return .empty
        case -1014: return .truncated
        case -1017: return .badChunk
        default: return .reset
        }
    }
}
