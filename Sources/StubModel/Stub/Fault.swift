/// A way of failing on the wire instead of answering, so the client reports a network error.
///
/// Moya's `.networkError(NSError)` has no HTTP form; stubd picks the fault that makes URLSession
/// and curl report the closest error (see `forNetworkError`).
public enum Fault: String, Sendable, CaseIterable {
    /// TCP reset (RST) with no response: URLSession `NSURLErrorNetworkConnectionLost`, curl 56.
    case reset
    /// Close the connection (FIN) without a byte of response: curl 52 "Empty reply from server".
    case empty
    /// Send bytes that are not HTTP, then close: curl 1/8, URLSession `NSURLErrorBadServerResponse`.
    case garbage
    /// Read the request, never answer; the server drops the connection after its hang cap
    /// (default 75 s, longer than URLSession's 60 s request timeout): `NSURLErrorTimedOut`.
    case hang

    /// The fault for an `NSError` from a Moya `.networkError`:
    ///
    /// | error (NSURLErrorDomain) | fault |
    /// |---|---|
    /// | -1001 TimedOut | hang |
    /// | -1005 NetworkConnectionLost | reset |
    /// | -1017 CannotParseResponse, -1011 BadServerResponse | garbage |
    /// | -1014 ZeroByteResource | empty |
    /// | anything else, any other domain | reset |
    public static func forNetworkError(domain: String, code: Int) -> Fault {
        guard domain == "NSURLErrorDomain" else { return .reset }
        switch code {
        case -1001: return .hang
        case -1005: return .reset
        case -1017, -1011: return .garbage
        case -1014: return .empty
        default: return .reset
        }
    }
}
