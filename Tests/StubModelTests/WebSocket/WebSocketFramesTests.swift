import Testing
@testable import StubModel
import StubdTestTags

/// RFC 6455 as pure code (issue 37): the handshake's accept key against the RFC's own vector,
/// frames read as a client sends them — masked, fragmented with a ping between, split across
/// reads, with 16-bit lengths — and refused as the RFC says (unmasked, reserved bits and opcodes,
/// oversized, bad UTF-8, fragmented control frames), and the server's frames.
@Suite(.tags(.inMemory)) struct WebSocketFramesTests {
    /// A client frame: masked with `key`.
    static func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, key: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        out += key
        out += payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
        return out
    }

    @Test func theAcceptKeyIsTheRFCs() {
        #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(WebSocketHandshake.problem(method: "GET", headers: [NameValue("Connection", "keep-alive, Upgrade"), NameValue("Upgrade", "websocket"),
                                                                     NameValue("Sec-WebSocket-Version", "13"), NameValue("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]) == nil)
        #expect(WebSocketHandshake.problem(method: "GET", headers: [NameValue("Connection", "Upgrade"), NameValue("Sec-WebSocket-Version", "8"),
                                                                     NameValue("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")])?.contains("13") == true)
        #expect(WebSocketHandshake.subprotocol(offered: [NameValue("Sec-WebSocket-Protocol", "v2, chat.v1")], supported: ["chat.v1", "v2"]) == "chat.v1")
    }

    @Test func theRFCsMaskedHelloIsRead() {
        var reader = WebSocketFrameReader(messageLimit: 1024)
        // RFC 6455 §5.7: a single-frame masked text message containing "Hello".
        #expect(reader.read([0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]) == [.message(.text("Hello"))])
    }

    @Test func fragmentsWithAPingBetweenAndBytesSplitAnywhere() {
        var reader = WebSocketFrameReader(messageLimit: 1024)
        let bytes = Self.clientFrame(0x1, Array("Hel".utf8), fin: false) + Self.clientFrame(0x9, Array("p".utf8))
            + Self.clientFrame(0x0, Array("lo".utf8)) + Self.clientFrame(0x2, Array(repeating: 7, count: 300))
        var events: [WebSocketFrameReader.Event] = []
        for byte in bytes { events += reader.read([byte]) }
        #expect(events == [.ping(Array("p".utf8)), .message(.text("Hello")), .message(.binary(Array(repeating: 7, count: 300)))])
    }

    @Test func closeFramesCarryTheirCodeAndReason() {
        var reader = WebSocketFrameReader(messageLimit: 1024)
        #expect(reader.read(Self.clientFrame(0x8, [0x03, 0xE8] + Array("bye".utf8))) == [.close(code: 1000, reason: "bye")])
        var empty = WebSocketFrameReader(messageLimit: 1024)
        #expect(empty.read(Self.clientFrame(0x8, [])) == [.close(code: nil, reason: "")])
    }

    @Test func brokenFramesFailAsTheRFCSays() {
        func failure(_ bytes: [UInt8], limit: Int = 1024) -> Int? {
            var reader = WebSocketFrameReader(messageLimit: limit)
            if case .failure(let code, _)? = reader.read(bytes).last { return code }
            return nil
        }
        #expect(failure([0x81, 0x02, 0x68, 0x69]) == 1002, "unmasked")
        #expect(failure(Self.clientFrame(0x1 | 0x40, Array("x".utf8))) == 1002, "a reserved bit")
        #expect(failure(Self.clientFrame(0x3, [])) == 1002, "a reserved opcode")
        #expect(failure(Self.clientFrame(0x9, [1], fin: false)) == 1002, "a fragmented ping")
        #expect(failure(Self.clientFrame(0x0, [1])) == 1002, "a continuation with nothing to continue")
        #expect(failure(Self.clientFrame(0x1, [0xC3, 0x28])) == 1007, "not UTF-8")
        #expect(failure(Self.clientFrame(0x2, Array(repeating: 0, count: 200)), limit: 100) == 1009, "over the limit")
        #expect(failure(Self.clientFrame(0x1, Array(repeating: 0x61, count: 80), fin: false) + Self.clientFrame(0x0, Array(repeating: 0x61, count: 80)), limit: 100) == 1009,
                "fragments together over the limit")
    }

    @Test func theServersFramesAreUnmaskedAndSized() {
        #expect(WebSocketFrame.message(.text("Hello")) == [0x81, 0x05] + Array("Hello".utf8))
        let large = WebSocketFrame.message(.binary(Array(repeating: 1, count: 256)))
        #expect(Array(large.prefix(4)) == [0x82, 126, 0x01, 0x00] && large.count == 260)
        let huge = WebSocketFrame.message(.binary(Array(repeating: 1, count: 70_000)))
        #expect(Array(huge.prefix(10)) == [0x82, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70])
        #expect(WebSocketFrame.close(code: 4000, reason: "bye") == [0x88, 0x05, 0x0F, 0xA0] + Array("bye".utf8))
    }

    @Test func theProxysFramesAreMaskedAndAServersAreReadUnmasked() {
        // The RFC's masked "Hello" (§5.7) is what the proxy writes with the RFC's mask.
        #expect(WebSocketFrame.masked(WebSocketFrame.message(.text("Hello")), with: [0x37, 0xfa, 0x21, 0x3d])
                == [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
        let long = Array(repeating: UInt8(7), count: 300)
        var serverSide = WebSocketFrameReader(messageLimit: 1024)
        #expect(serverSide.read(WebSocketFrame.masked(WebSocketFrame.message(.binary(long)), with: [1, 2, 3, 4])) == [.message(.binary(long))])
        // A server's frames, read by the proxy: unmasked, split anywhere; a masked one refused.
        var fromServer = WebSocketFrameReader(messageLimit: 1024, fromServer: true)
        var events: [WebSocketFrameReader.Event] = []
        for byte in WebSocketFrame.message(.text("Hello")) + WebSocketFrame.close(code: 4000, reason: "bye") { events += fromServer.read([byte]) }
        #expect(events == [.message(.text("Hello")), .close(code: 4000, reason: "bye")])
        var strict = WebSocketFrameReader(messageLimit: 1024, fromServer: true)
        #expect(strict.read(Self.clientFrame(0x1, Array("x".utf8))) == [.failure(code: 1002, reason: "a server frame must not be masked")])
    }

    /// A close code a peer may not send (999, 1004–1006, 1015, 5000 and up) is a protocol error
    /// answered 1002, not echoed (RFC 6455 §7.4); every code it may send reads as a close.
    @Test func closeCodesAPeerMayNotSendAreProtocolErrors() {
        func closeFrame(_ code: Int) -> [UInt8] { Self.clientFrame(0x8, [UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)] + Array("r".utf8)) }
        for code in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
            var reader = WebSocketFrameReader(messageLimit: 1024)
            guard case .failure(let answer, let reason)? = reader.read(closeFrame(code)).first else { Issue.record("\(code) was read as a close"); continue }
            #expect(answer == 1002 && reason.contains("close code \(code)"))
        }
        for code in [1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999] {
            var reader = WebSocketFrameReader(messageLimit: 1024)
            #expect(reader.read(closeFrame(code)) == [.close(code: code, reason: "r")], "\(code)")
        }
    }

    @Test func closeCodesThatDescribeACloseAreNeverSent() {
        #expect([nil, 1005, 1006, 1015, 1000, 1001, 4000].map(WebSocketFrame.sendableCloseCode) == [1000, 1000, 1000, 1000, 1000, 1001, 4000])
    }
}
