import StubdHTTP
import StubdHTTP2

/// Any bytes after the HTTP/2 preface, fed to a server session in pieces whose size comes from the
/// input, each request answered in turn as the engine would (a response with a body, a head then
/// a failure, a reset) and what the session makes read out: nothing traps, a request never holds
/// more body or header bytes than its limits unless it says it went over, and no request comes
/// from a stream the client did not open (odd numbers).
///
/// With the first byte's top bit set, the session goes on from an `Upgrade: h2c` request first:
/// the bytes up to the first newline are its `HTTP2-Settings` value (`HTTP2Upgrade` decodes it;
/// what it accepts is whole SETTINGS entries, which the session is given), stream 1 is answered,
/// and the rest follows the preface as above.
func fuzzHTTP2(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
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
    if first & 0x80 != 0 {
        let line = bytes.dropFirst().prefix { $0 != 0x0A }
        bytes = [first] + Array(bytes.dropFirst(line.count + 2))
        let asks = [NameValue("Connection", "Upgrade, HTTP2-Settings"), NameValue("Upgrade", "h2c"),
                    NameValue("HTTP2-Settings", String(decoding: line, as: UTF8.self))]
        if let settings = HTTP2Upgrade.settings(in: asks) {
            if settings.count % 6 != 0 { fatalError("settings that are not whole entries") }
            if session.upgrade(settings: settings, headRequest: first & 0x40 != 0) {
                session.respond(stream: 1, status: 200, headers: [], body: Array(repeating: 0x62, count: 70_000))
            }
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
