public import StubdHTTP

/// One request as it arrived on one HTTP/2 stream: its pseudo-headers, its header fields (names in
/// lower case, as HTTP/2 sends them) and its body, gathered until the stream's END_STREAM.
public struct HTTP2Request: Sendable {
    /// The stream it came on (odd, client-initiated).
    public let stream: Int32
    /// `:method`.
    public internal(set) var method = ""
    /// `:scheme` (`http` or `https`).
    public internal(set) var scheme = ""
    /// `:authority`, the HTTP/2 spelling of `Host` (RFC 9113 §8.3.1); empty when not sent.
    public internal(set) var authority = ""
    /// `:path`: the request target in origin form, query included.
    public internal(set) var path = ""
    /// The header fields in arrival order (pseudo-headers apart).
    public internal(set) var headers: [NameValue] = []
    /// The body, whole.
    public internal(set) var body: [UInt8] = []
    /// Bytes of header names and values received (pseudo-headers included).
    public internal(set) var headBytes = 0
    /// What went over a limit, so the engine answers it (431, 413) instead of the route: the
    /// rest of the request was read and dropped.
    public internal(set) var overLimit: HTTP2Limit?

    init(stream: Int32) {
        self.stream = stream
    }
}

/// A bound an HTTP/2 request went over (`HTTP2Limits`).
public enum HTTP2Limit: Sendable, Equatable {
    /// Its header list was longer than `HTTP2Limits.maxHeaderListBytes`.
    case headerList
    /// Its body was longer than `HTTP2Limits.maxBodyBytes`.
    case body
}

/// The bounds of one HTTP/2 connection, announced in its SETTINGS and kept on what arrives.
public struct HTTP2Limits: Sendable {
    /// Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); nghttp2 refuses
    /// the next one with RST_STREAM REFUSED_STREAM.
    public var maxConcurrentStreams: UInt32 = 100
    /// Bytes of header names and values one request may carry (SETTINGS_MAX_HEADER_LIST_SIZE,
    /// and checked: past it the request is answered 431).
    public var maxHeaderListBytes: Int
    /// Bytes of body one request may carry; past it the rest is dropped and the request answered
    /// 413, as on HTTP/1.1.
    public var maxBodyBytes: Int
    /// Bytes of request bodies one connection holds at once, all streams together: past it the
    /// client's flow-control window is left unopened until a request is taken away, so a client
    /// opening many uploads at once cannot hold more than this per connection.
    public var maxBufferedBodyBytes: Int
    /// Stream resets a client may cause, as a token bucket (burst, then per second): the rapid
    /// reset attack (CVE-2023-44487) ends the connection with GOAWAY past it.
    public var resetBurst: UInt64 = 1000
    /// See `resetBurst`.
    public var resetsPerSecond: UInt64 = 100
    /// CONTINUATION frames one header block may take (CVE-2024-27316).
    public var maxContinuations = 8

    /// Bounds with the engine's header and body limits.
    public init(maxHeaderListBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderListBytes = maxHeaderListBytes
        self.maxBodyBytes = maxBodyBytes
        maxBufferedBodyBytes = maxBodyBytes
    }
}

/// RFC 9113 §7's error codes, for RST_STREAM and GOAWAY.
public enum HTTP2ErrorCode: UInt32, Sendable {
    /// A graceful end (GOAWAY), or a stream the server no longer needs.
    case noError = 0x0
    /// The peer broke the protocol.
    case protocolError = 0x1
    /// Something failed in the endpoint.
    case internalError = 0x2
    /// The stream was refused before any processing: a client may retry it.
    case refusedStream = 0x7
    /// The stream is no longer wanted.
    case cancel = 0x8
    /// The peer is generating excessive load.
    case enhanceYourCalm = 0xb
    /// The request must be made over HTTP/1.1: clients that can retry it there (curl, Chromium).
    case http11Required = 0xd
}
