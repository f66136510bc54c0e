import StubdHTTP
import StubdHTTP2
import StubdTestTags
import Testing

/// The HTTP/2 session in memory: frames written by hand (HPACK literals, no Huffman) go in, the
/// frames it makes come out and are read back by type, stream and payload.
@Suite(.tags(.inMemory))
struct HTTP2SessionTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    static func frame(_ type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// A literal header field without indexing, its name from the static table (`index`).
    static func literal(_ index: UInt8, _ value: String) -> [UInt8] {
        [index, UInt8(value.utf8.count)] + Array(value.utf8)
    }

    /// A literal header field without indexing with a new name.
    static func literal(_ name: String, _ value: String) -> [UInt8] {
        [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
    }

    /// HEADERS for `method` (`GET` 0x82 or `POST` 0x83) `path` on `stream`, END_HEADERS, and
    /// END_STREAM unless a body follows.
    static func headers(stream: UInt32, post: Bool = false, path: String, extra: [UInt8] = [], endStream: Bool = true) -> [UInt8] {
        let block = [post ? 0x83 : 0x82, 0x86] + literal(4, path) + literal(1, "api.example.com") + extra
        return frame(0x1, flags: endStream ? 0x05 : 0x04, stream: stream, block)
    }

    static func settings() -> [UInt8] { frame(0x4, flags: 0, stream: 0, []) }

    /// The frames in `bytes`: (type, flags, stream, payload).
    static func frames(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        var out: [(UInt8, UInt8, UInt32, [UInt8])] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let stream = UInt32(bytes[index + 5] & 0x7F) << 24 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 8 | UInt32(bytes[index + 8])
            out.append((bytes[index + 3], bytes[index + 4], stream, Array(bytes[(index + 9)..<min(bytes.count, index + 9 + length)])))
            index += 9 + length
        }
        return out
    }

    static func session(maxBody: Int = 1024, maxHead: Int = 4096) -> (HTTP2Session, Box) {
        let session = HTTP2Session(limits: HTTP2Limits(maxHeaderListBytes: maxHead, maxBodyBytes: maxBody))
        let box = Box()
        session.onRequest = { box.requests.append($0) }
        session.onStreamClosed = { stream, code in box.closed.append((stream, code)) }
        return (session, box)
    }

    final class Box {
        var requests: [HTTP2Request] = []
        var closed: [(Int32, UInt32)] = []
    }

    static func feed(_ session: HTTP2Session, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { session.receive($0) }
    }

    @Test func aGetIsGatheredAndAnsweredWithHeadersThenData() throws {
        let (session, box) = Self.session()
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, path: "/zen?x=1", extra: Self.literal("x-stubd-session", "t1"))))
        let request = try #require(box.requests.first)
        #expect(box.requests.count == 1)
        #expect((request.stream, request.method, request.scheme, request.authority, request.path) == (1, "GET", "http", "api.example.com", "/zen?x=1"))
        #expect(request.headers == [NameValue("x-stubd-session", "t1")])
        #expect(request.overLimit == nil)
        #expect(session.respond(stream: 1, status: 200, headers: [NameValue("Content-Type", "text/plain"), NameValue("Connection", "close")], body: Array("ok".utf8)))
        let out = Self.frames(session.produce() ?? [])
        // Its SETTINGS, the ACK of the client's, then the answer on stream 1.
        #expect(out.first?.type == 0x4 && out.first?.flags == 0)
        let answer = out.filter { $0.stream == 1 }
        #expect(answer.map(\.type) == [0x1, 0x0])
        #expect(answer.last?.payload == Array("ok".utf8) && answer.last.map { $0.flags & 0x1 } == 1, "DATA with END_STREAM")
        #expect(box.closed.map(\.0) == [1])
        #expect(!session.isOpen(1))
    }

    @Test func trailersFollowTheBodyOnAHeadersFrameThatEndsTheStream() throws {
        let (session, _) = Self.session()
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, path: "/a") + Self.headers(stream: 3, path: "/b")))
        #expect(session.respond(stream: 1, status: 200, headers: [], body: Array("ok".utf8), trailers: [NameValue("Grpc-Status", "0")]))
        // No body: the trailers follow the head at once (nghttp2 sends no empty DATA).
        #expect(session.respond(stream: 3, status: 200, headers: [], body: nil, trailers: [NameValue("x-done", "yes")]))
        let out = Self.frames(session.produce() ?? [])
        let one = out.filter { $0.stream == 1 }, three = out.filter { $0.stream == 3 }
        #expect(one.map(\.type) == [0x1, 0x0, 0x1] && one.map { $0.flags & 0x1 } == [0, 0, 1], "HEADERS, DATA, then the trailers with END_STREAM")
        #expect(three.map(\.type) == [0x1, 0x1] && three.map { $0.flags & 0x1 } == [0, 1], "HEADERS, then the trailers with END_STREAM")
    }

    @Test func aBodyOverTheLimitIsDroppedAndSaidSo() throws {
        let (session, box) = Self.session(maxBody: 8)
        let body = Array("0123456789".utf8)
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, post: true, path: "/up", endStream: false)
                          + Self.frame(0x0, flags: 0, stream: 1, Array(body[..<5])) + Self.frame(0x0, flags: 0x1, stream: 1, Array(body[5...]))))
        let request = try #require(box.requests.first)
        #expect(request.overLimit == .body && request.body.isEmpty && request.method == "POST")
        // Under the limit, a body in two DATA frames arrives whole.
        let (fits, fitBox) = Self.session(maxBody: 64)
        #expect(Self.feed(fits, Self.preface + Self.settings() + Self.headers(stream: 1, post: true, path: "/up", endStream: false)
                          + Self.frame(0x0, flags: 0, stream: 1, Array(body[..<5])) + Self.frame(0x0, flags: 0x1, stream: 1, Array(body[5...]))))
        #expect(fitBox.requests.first?.body == body && fitBox.requests.first?.overLimit == nil)
    }

    @Test func headersOverTheLimitAreSaidSo() throws {
        let (session, box) = Self.session(maxHead: 64)
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, path: "/a", extra: Self.literal("x-big", String(repeating: "v", count: 100)))))
        #expect(box.requests.first?.overLimit == .headerList)
    }

    @Test func heldBodiesWaitForWindowUpdatesUntilTheirRequestIsTaken() throws {
        var limits = HTTP2Limits(maxHeaderListBytes: 4096, maxBodyBytes: 1 << 20)
        limits.maxBufferedBodyBytes = 100
        let session = HTTP2Session(limits: limits)
        var requests: [HTTP2Request] = []
        session.onRequest = { requests.append($0) }
        // 39,000 bytes in three DATA frames: past half the 65,535-byte windows, where nghttp2
        // sends a WINDOW_UPDATE once the bytes are consumed.
        let chunk = [UInt8](repeating: 7, count: 13_000)
        let data = (0..<3).flatMap { _ in Self.frame(0x0, flags: 0, stream: 1, chunk) }
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, post: true, path: "/up", endStream: false) + data))
        // Over the connection's budget: no WINDOW_UPDATE for the held bytes yet.
        let before = Self.frames(session.produce() ?? []).filter { $0.type == 0x8 }
        #expect(before.isEmpty, "\(before.map(\.stream))")
        #expect(Self.feed(session, Self.frame(0x0, flags: 0x1, stream: 1, [])))
        #expect(requests.first?.body.count == 39_000)
        // Taken: the window opens for the connection.
        let after = Self.frames(session.produce() ?? []).filter { $0.type == 0x8 }
        #expect(after.contains { $0.stream == 0 }, "\(after.map(\.stream))")
    }

    @Test func aResetAndABrokenConnectionMakeTheirFrames() throws {
        let (session, box) = Self.session()
        #expect(Self.feed(session, Self.preface + Self.settings() + Self.headers(stream: 1, path: "/a") + Self.headers(stream: 3, path: "/b")))
        #expect(box.requests.map(\.stream) == [1, 3])
        session.reset(stream: 1, code: .internalError)
        #expect(session.respondThenFail(stream: 3, status: 200, headers: [NameValue("content-length", "64")]))
        let out = Self.frames(session.produce() ?? [])
        let rst = try #require(out.first { $0.type == 0x3 && $0.stream == 1 })
        #expect(rst.payload == [0, 0, 0, 2], "RST_STREAM INTERNAL_ERROR")
        #expect(out.filter { $0.stream == 3 }.map(\.type) == [0x1, 0x3], "HEADERS, then RST_STREAM instead of the body")
        #expect(!session.isFinished, "the connection goes on")
        // A frame longer than the largest the server allows: the connection ends with GOAWAY
        // FRAME_SIZE_ERROR (6), and the session is finished once it is sent.
        _ = Self.feed(session, [0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00])
        let goaway = Self.frames(session.produce() ?? []).filter { $0.type == 0x7 }
        #expect(goaway.count == 1 && goaway.first.map { Array($0.payload[4..<8]) } == [0, 0, 0, 6], "\(goaway.map(\.payload))")
        #expect(session.isFinished)
    }

    @Test func noPrefaceIsRefused() {
        let (session, _) = Self.session()
        #expect(!Self.feed(session, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
        #expect(session.failure != nil && session.isFinished)
    }
}
