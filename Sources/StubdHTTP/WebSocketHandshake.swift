import Foundation

/// RFC 6455 §4.2's server side of the opening handshake, as pure functions: whether a request
/// asks for a WebSocket, what is wrong with one that asks badly, the `Sec-WebSocket-Accept` for
/// its key, and the subprotocol chosen.
public enum WebSocketHandshake {
    /// The GUID the accept key is made with (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Whether the headers ask to upgrade to WebSocket (`Upgrade: websocket`, any case).
    public static func asksForWebSocket(_ headers: [NameValue]) -> Bool {
        headers.contains { $0.name.equalsIgnoringCase("Upgrade") && $0.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket" } }
    }

    /// What is wrong with an upgrade request, or nil when it is a valid one (§4.2.1): a GET,
    /// `Connection` naming `Upgrade`, version 13, a key of 16 bytes in base64.
    public static func problem(method: String, headers: [NameValue]) -> String? {
        func value(_ name: String) -> String? { headers.first { $0.name.equalsIgnoringCase(name) }?.value }
        guard method == "GET" else { return "a WebSocket opens with GET, not \(method)" }
        guard let connection = value("Connection"), connection.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == "upgrade" }) else {
            return "Connection must name Upgrade"
        }
        guard value("Sec-WebSocket-Version")?.trimmingCharacters(in: .whitespaces) == "13" else {
            return "Sec-WebSocket-Version must be 13 (got \(value("Sec-WebSocket-Version") ?? "none"))"
        }
        guard let key = value("Sec-WebSocket-Key")?.trimmingCharacters(in: .whitespaces), let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            return "Sec-WebSocket-Key must be 16 bytes in base64"
        }
        return nil
    }

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64(SHA-1(key + GUID)).
    public static func accept(key: String) -> String {
        Data(SHA1.digest(Array((key.trimmingCharacters(in: .whitespaces) + guid).utf8))).base64EncodedString()
    }

    /// The first of the route's subprotocols the client offers (`Sec-WebSocket-Protocol`), if any.
    public static func subprotocol(offered headers: [NameValue], supported: [String]) -> String? {
        let offered = headers.filter { $0.name.equalsIgnoringCase("Sec-WebSocket-Protocol") }
            .flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        return supported.first { offered.contains($0) }
    }
}

/// SHA-1 (FIPS 180-4), only for the handshake's accept key: no C library in the model, which the
/// test kit links on iOS.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        var bytes = message
        let length = UInt64(message.count) * 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            for i in 0..<16 {
                w[i] = UInt32(bytes[chunk + 4 * i]) << 24 | UInt32(bytes[chunk + 4 * i + 1]) << 16 | UInt32(bytes[chunk + 4 * i + 2]) << 8 | UInt32(bytes[chunk + 4 * i + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = x << 1 | x >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A827999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        return h.flatMap { value in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
    }
}
