import Foundation
public import StubdHTTP

/// An HTTP/1.1 request's ask to go on as HTTP/2 in clear: `Upgrade: h2c` with its SETTINGS in
/// `HTTP2-Settings` (RFC 7540 §3.2). RFC 9113 §3.1 deprecates it, but Java's `HttpClient` (whose
/// default version is HTTP/2) and `curl --http2` still ask it of every `http://` server before
/// their first request, so a stub server that ignores it serves them HTTP/1.1 where a real h2c
/// server would not.
///
/// Asked properly means: `Upgrade` lists `h2c`, `Connection` lists both `Upgrade` and
/// `HTTP2-Settings` (they are hop-by-hop: a proxy that forwarded them did not mean them), and
/// exactly one `HTTP2-Settings` field whose base64url value decodes to whole SETTINGS entries
/// with values HTTP/2 allows.
/// Anything else is answered as HTTP/1.1, as RFC 9110 §7.8 lets a server ignore an upgrade.
public enum HTTP2Upgrade {
    /// The decoded SETTINGS payload of a request that asks for h2c properly (above); nil when it
    /// does not ask, or asks in a way the server must not follow.
    public static func settings(in headers: [NameValue]) -> [UInt8]? {
        guard lists(headers, "Upgrade", "h2c"), lists(headers, "Connection", "upgrade"), lists(headers, "Connection", "http2-settings") else { return nil }
        let fields = headers.filter { $0.name.equalsIgnoringCase("HTTP2-Settings") }
        guard fields.count == 1, let payload = base64URLDecoded(fields[0].value), payload.count % 6 == 0, valid(payload) else { return nil }
        return payload
    }

    /// Whether every entry of a SETTINGS payload has a value RFC 9113 §6.5.2 allows (nghttp2
    /// would take the upgrade, then end the connection with GOAWAY over it; a request with a bad
    /// value is better answered over HTTP/1.1): ENABLE_PUSH, ENABLE_CONNECT_PROTOCOL (RFC 8441)
    /// and NO_RFC7540_PRIORITIES (RFC 9218) 0 or 1, INITIAL_WINDOW_SIZE at most 2^31 − 1,
    /// MAX_FRAME_SIZE from 2^14 to 2^24 − 1; unknown identifiers are ignored, as §6.5.2 says.
    static func valid(_ payload: [UInt8]) -> Bool {
        stride(from: 0, to: payload.count - 5, by: 6).allSatisfy { start in
            let identifier = UInt16(payload[start]) << 8 | UInt16(payload[start + 1])
            let value = payload[(start + 2)..<(start + 6)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            switch identifier {
            case 0x2, 0x8, 0x9: return value <= 1
            case 0x4: return value <= 0x7FFF_FFFF
            case 0x5: return (1 << 14)...((1 << 24) - 1) ~= value
            default: return true
            }
        }
    }

    /// The request's fields as a request arriving over HTTP/2 would carry them: the upgrade's own
    /// (`Connection`, `Upgrade`, `HTTP2-Settings`, `Keep-Alive`) and any other `Connection` names
    /// left out, since HTTP/2 has no connection-specific fields (RFC 9113 §8.2.2).
    public static func requestHeaders(_ headers: [NameValue]) -> [NameValue] {
        var dropped: Set<String> = ["connection", "upgrade", "http2-settings", "keep-alive"]
        for field in headers where field.name.equalsIgnoringCase("Connection") {
            for token in field.value.split(separator: ",") { dropped.insert(token.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        return headers.filter { !dropped.contains($0.name.lowercased()) }
    }

    /// The `101` that switches the connection; the server's SETTINGS follow it.
    public static let switchingHead = Array("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n".utf8)

    /// Whether a field named `name` lists `token` (a comma-separated list, any case).
    private static func lists(_ headers: [NameValue], _ name: String, _ token: String) -> Bool {
        headers.contains { field in
            field.name.equalsIgnoringCase(name) && field.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).equalsIgnoringCase(token) }
        }
    }

    /// `text` as base64url (RFC 4648 §5), padding optional (token68 leaves it out); nil for any
    /// other character or a length no encoding has. Linear, and bounded by the header's own limit.
    static func base64URLDecoded(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
        guard symbols.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            guard let value = sextet(symbol) else { return nil }
            accumulator = (accumulator << 6 | UInt32(value)) & 0xFFFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    private static func sextet(_ symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): symbol - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
