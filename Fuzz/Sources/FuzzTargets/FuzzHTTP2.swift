import StubdHTTP
import StubdHTTP2

/// Any bytes after the HTTP/2 preface, fed to a server session in pieces whose size comes from the
/// input, each request answered in turn as the engine would (a response with a body, a head then
/// a failure, a reset) and what the session makes read out: nothing traps, a request never holds
/// more body or header bytes than its limits unless it says it went over, and no request comes
/// from a stream the client did not open (odd numbers).
func fuzzHTTP2(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let step = Int(first % 64) + 1
    var limits = HTTP2Limits(maxHeaderListBytes: 1024, maxBodyBytes: 2048)
    limits.maxBufferedBodyBytes = 1024
    let session = HTTP2Session(limits: limits)
    var answered = 0
    session.onRequest = { [unowned session] request in
        if request.stream % 2 == 0 { fatalError("a request on a stream the server would open") }
        if request.overLimit == nil, request.body.count > 2048 { fatalError("a body past its limit") }
        if request.overLimit == nil, request.headBytes > 1024 { fatalError("a head past its limit") }
        answered += 1
        switch answered % 3 {
        case 0: session.respond(stream: request.stream, status: 200, headers: [NameValue("Content-Type", "text/plain")], body: Array(repeating: 0x61, count: 20_000))
        case 1: session.respondThenFail(stream: request.stream, status: 200, headers: [])
        default: session.reset(stream: request.stream, code: .internalError)
        }
    }
    let input = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Array(bytes.dropFirst())
    var offset = 0
    while offset < input.count {
        let piece = Array(input[offset..<min(input.count, offset + step)])
        offset += step
        let ok = piece.withUnsafeBytes { session.receive($0) }
        while session.produce() != nil {}
        if !ok { break }
    }
    return 0
}
