/// RFC 6455 §5 framing, as pure code: a reader that takes bytes as they arrive and gives whole
/// messages and control frames (unmasking, reassembling fragments, enforcing a size limit and
/// every rule an endpoint must check), and the frames each side writes (a server's never masked,
/// a client's always). The reader serves both sides: a server's reads masked client frames, the
/// proxy's reader of an upstream (`fromServer`) reads unmasked ones.
public struct WebSocketFrameReader: Sendable {
    /// What the bytes so far hold, in order.
    public enum Event: Sendable, Equatable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close frame: its code (nil when it gave none) and reason.
        case close(code: Int?, reason: String)
        /// A rule broken: the connection must close with this code (1002 protocol, 1007 bad
        /// UTF-8, 1009 too big) and reason.
        case failure(code: Int, reason: String)
    }

    /// Bytes one message may take, fragments together.
    public let messageLimit: Int
    /// Frames come from a server (unmasked, as §5.1 requires of them), not from a client.
    public let fromServer: Bool
    private var buffer: [UInt8] = []
    private var fragments: [UInt8] = []
    private var fragmentOpcode: UInt8?
    private var failed = false

    /// A reader for one connection: of a client's frames, or of a server's (`fromServer`).
    public init(messageLimit: Int, fromServer: Bool = false) {
        self.messageLimit = messageLimit
        self.fromServer = fromServer
    }

    /// Takes `bytes` and returns the events they complete (after a failure, nothing more).
    public mutating func read(_ bytes: [UInt8]) -> [Event] {
        guard !failed else { return [] }
        buffer += bytes
        var events: [Event] = []
        var offset = 0
        while true {
            let available = buffer.count - offset
            guard available >= 2 else { break }
            let first = buffer[offset], second = buffer[offset + 1]
            let fin = first & 0x80 != 0, opcode = first & 0x0F
            guard first & 0x70 == 0 else { return fail("a reserved bit is set (no extension was agreed)", into: &events) }
            let masked = second & 0x80 != 0
            guard masked != fromServer else {
                return fail(fromServer ? "a server frame must not be masked" : "a client frame must be masked", into: &events)
            }
            var length = Int(second & 0x7F)
            var header = 2
            if length == 126 {
                guard available >= 4 else { break }
                length = Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3])
                header = 4
            } else if length == 127 {
                guard available >= 10 else { break }
                var big: UInt64 = 0
                for index in 0..<8 { big = big << 8 | UInt64(buffer[offset + 2 + index]) }
                guard big <= UInt64(Int32.max) else { return fail("a frame of \(big) bytes", into: &events, code: 1009) }
                length = Int(big)
                header = 10
            }
            if opcode >= 8 {
                guard fin else { return fail("a control frame must not be fragmented", into: &events) }
                guard length <= 125 else { return fail("a control frame may carry 125 bytes at most", into: &events) }
            }
            if length > messageLimit || fragments.count + length > messageLimit {
                return fail("a message over \(messageLimit) bytes", into: &events, code: 1009)
            }
            let maskBytes = masked ? 4 : 0
            guard available >= header + maskBytes + length else { break }
            let start = offset + header + maskBytes
            var payload = Array(buffer[start..<(start + length)])
            if masked {
                let mask = Array(buffer[(offset + header)..<start])
                for index in payload.indices { payload[index] ^= mask[index & 3] }
            }
            offset = start + length
            switch opcode {
            case 0x0:
                guard fragmentOpcode != nil else { return fail("a continuation frame with no message to continue", into: &events) }
                fragments += payload
                if fin, let opcode = fragmentOpcode {
                    fragmentOpcode = nil
                    let whole = fragments
                    fragments = []
                    guard let message = Self.message(opcode, whole) else { return fail("a text message that is not UTF-8", into: &events, code: 1007) }
                    events.append(.message(message))
                }
            case 0x1, 0x2:
                guard fragmentOpcode == nil else { return fail("a new message before the last one's final fragment", into: &events) }
                if fin {
                    guard let message = Self.message(opcode, payload) else { return fail("a text message that is not UTF-8", into: &events, code: 1007) }
                    events.append(.message(message))
                } else {
                    fragmentOpcode = opcode
                    fragments = payload
                }
            case 0x8:
                if payload.count >= 2 {
                    let code = Int(payload[0]) << 8 | Int(payload[1])
                    guard Self.receivableCloseCodes.contains(where: { $0.contains(code) }) else {
                        return fail("close code \(code) may not be sent (RFC 6455 §7.4: 1000–1003, 1007–1014 or 3000–4999)", into: &events)
                    }
                    guard let reason = String(validating: payload[2...], as: UTF8.self) else { return fail("a close reason that is not UTF-8", into: &events, code: 1007) }
                    events.append(.close(code: code, reason: reason))
                } else if payload.count == 1 {
                    return fail("a close frame of one byte", into: &events)
                } else {
                    events.append(.close(code: nil, reason: ""))
                }
            case 0x9: events.append(.ping(payload))
            case 0xA: events.append(.pong(payload))
            default: return fail("opcode \(opcode) is reserved", into: &events)
            }
        }
        buffer.removeFirst(offset)
        return events
    }

    /// Close codes a peer may send (RFC 6455 §7.4 and IANA's registry): 1004–1006 and 1015 are
    /// reserved or describe a close without a frame, under 1000 and from 5000 up are not codes.
    /// Any other is a protocol error, answered 1002.
    static let receivableCloseCodes: [ClosedRange<Int>] = [1000...1003, 1007...1014, 3000...4999]

    private mutating func fail(_ reason: String, into events: inout [Event], code: Int = 1002) -> [Event] {
        failed = true
        buffer = []
        fragments = []
        events.append(.failure(code: code, reason: reason))
        return events
    }

    private static func message(_ opcode: UInt8, _ payload: [UInt8]) -> WebSocketMessage? {
        if opcode == 0x2 { return .binary(payload) }
        return String(validating: payload, as: UTF8.self).map(WebSocketMessage.text)
    }
}

/// The server's frames: whole (FIN), unmasked (§5.1).
public enum WebSocketFrame {
    /// A text or binary message.
    public static func message(_ message: WebSocketMessage) -> [UInt8] {
        switch message {
        case .text(let text): return frame(opcode: 0x1, Array(text.utf8))
        case .binary(let bytes): return frame(opcode: 0x2, bytes)
        }
    }

    /// A close frame with its code and reason (cut to fit 125 bytes).
    public static func close(code: Int, reason: String) -> [UInt8] {
        frame(opcode: 0x8, [UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123)))
    }

    /// The code to send for a close seen with `code`: 1005 (none given), 1006 (abnormal) and 1015
    /// (TLS) describe a close and may never be sent (RFC 6455 §7.4.1), so they and a missing code
    /// become 1000.
    public static func sendableCloseCode(_ code: Int?) -> Int {
        guard let code, ![1005, 1006, 1015].contains(code) else { return 1000 }
        return code
    }

    /// A pong echoing a ping's payload.
    public static func pong(_ payload: [UInt8]) -> [UInt8] { frame(opcode: 0xA, payload) }

    /// A frame no client may accept: reserved opcode 3 (the `invalid-frame` fault).
    public static let invalid: [UInt8] = [0x83, 0x00]

    /// A client's frame of a message, a close or a pong: masked with `mask` (§5.3: four bytes the
    /// server cannot predict; the proxy draws them from the system's random source).
    public static func masked(_ frame: [UInt8], with mask: [UInt8]) -> [UInt8] {
        precondition(mask.count == 4 && frame.count >= 2)
        let header = frame[1] == 127 ? 10 : frame[1] == 126 ? 4 : 2
        var out = Array(frame[..<header])
        out[1] |= 0x80
        out += mask
        var index = 0
        for byte in frame[header...] {
            out.append(byte ^ mask[index & 3])
            index += 1
        }
        return out
    }

    static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x80 | opcode]
        let count = payload.count
        if count < 126 {
            out.append(UInt8(count))
        } else if count <= 0xFFFF {
            out += [126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(shift))) }
        }
        return out + payload
    }
}
