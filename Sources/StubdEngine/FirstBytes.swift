import StubdHTTP
import Foundation

/// What a connection's first bytes call for before evhttp reads them — two things evhttp 2.1
/// cannot answer well by itself, both seen by a peek at the first bytes the client sends (the
/// connection tracker's one-shot input callback, so a connection that is neither pays one copy):
///
/// - **HTTP/2 with prior knowledge** (`curl --http2-prior-knowledge`, OkHttp's
///   `H2_PRIOR_KNOWLEDGE`): taken for HTTP/2 (`HTTP2Connection`) on the direct ports; with
///   `--http2 off` (where evhttp would drop the connection without a byte, an empty reply to the
///   client) stubd answers in HTTP/2 — an empty SETTINGS frame, then GOAWAY with
///   `HTTP_1_1_REQUIRED` and a sentence saying what to do — which such a client can read.
/// - **A body over the limit announced with `Expect: 100-continue`**: evhttp's lingering close
///   waits for the body the client holds back until its own timeout (curl: 1 s) before its 413.
///   stubd sends the 413 at once with `Connection: close`, as nginx does. (Only a connection's
///   first request, whose head came whole in the first bytes: later ones on a kept-alive
///   connection still wait, as before.) A length past `Int.max` is over any limit; one that is
///   not `1*DIGIT` (`+5`, `0x10`) is answered 400 at once — evhttp would read it as a number and
///   send `100 Continue` before `ProtocolChecks` refuses it.
/// - **A `Content-Length` no number can hold** (2^63 − 1 or more) without `Expect` (with it,
///   the 413 above): evhttp's lingering close would wait for a body nobody can send until the
///   head timeout (10 s); stubd answers 400 at once with `Connection: close`.
/// Public for `make fuzz` (Fuzz/FuzzHTTPHead reads any bytes with it); only the engine acts on it.
public enum FirstBytes: Equatable, Sendable {
    /// `PRI * HTTP/2.0`: taken for HTTP/2, or (HTTP/2 off, or the proxy port) answered SETTINGS then GOAWAY.
    case http2Preface
    /// A body over the limit announced with `Expect: 100-continue` (`Int.max`: 2^63 or more).
    case expectTooLarge(length: Int)
    /// `Expect: 100-continue` with a `Content-Length` that is not digits.
    case expectBadLength
    /// A `Content-Length` of 2^63 − 1 or more (no client can send such a body).
    case unreadableLength
    /// Anything else: evhttp reads it.
    case ordinary

    /// The HTTP/2 connection preface's first line (RFC 9113 §3.4).
    static let preface = Array("PRI * HTTP/2.0".utf8)

    /// What `bytes`, a connection's first, call for under a body limit of `bodyLimit` bytes.
    public static func classify(_ bytes: [UInt8], bodyLimit: Int) -> FirstBytes {
        if bytes.starts(with: preface) { return .http2Preface }
        // Most connections: no "…ontinue" anywhere in the head, so nothing is parsed for Expect.
        if contains(bytes, Self.continueTail), let end = headEnd(bytes), let early = expectation(bytes[..<end], bodyLimit: bodyLimit) { return early }
        return hasHugeLength(bytes) ? .unreadableLength : .ordinary
    }

    /// What an `Expect: 100-continue` head calls for, or nil when it is answered as usual.
    private static func expectation(_ head: ArraySlice<UInt8>, bodyLimit: Int) -> FirstBytes? {
        var expectsContinue = false, length: Int?, badLength = false, chunked = false
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "expect": expectsContinue = value == "100-continue"
            case "content-length":
                length = ProtocolChecks.decimal(value).flatMap(CheckedNumber.decimalDigits)
                badLength = badLength || length == nil
            case "transfer-encoding": chunked = true
            default: break
            }
        }
        guard expectsContinue, !chunked else { return nil }
        if badLength { return .expectBadLength }
        guard let length, length > bodyLimit else { return nil }
        return .expectTooLarge(length: length)
    }

    private static let continueTail = Array("ontinue".utf8)
    private static let lengthTail = Array("ength".utf8)

    /// Whether a `…length:` header carries 19 or more significant digits whose value is at least
    /// `Int.max`. One pass that stops only at colons (rare in a head), so it costs little.
    @inline(__always) static func hasHugeLength(_ bytes: [UInt8]) -> Bool {
        var index = 5
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: ":"), (0..<5).allSatisfy({ bytes[index - 5 + $0] | 0x20 == lengthTail[$0] }) else { continue }
            var digit = index + 1
            while digit < bytes.count, bytes[digit] == 0x20 || bytes[digit] == 0x09 { digit += 1 }
            while digit < bytes.count, bytes[digit] == UInt8(ascii: "0") { digit += 1 }
            let start = digit
            while digit < bytes.count, bytes[digit] >= UInt8(ascii: "0"), bytes[digit] <= UInt8(ascii: "9") { digit += 1 }
            if digit - start >= 19, CheckedNumber.decimalDigits(String(decoding: bytes[start..<digit], as: UTF8.self)) == Int.max { return true }
        }
        return false
    }

    @inline(__always) private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        for index in 0..<(bytes.count - needle.count + 1) where bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Where an HTTP head's blank line starts (the `\r\n\r\n`), if it has come.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0..<(bytes.count - 3) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// What goes on the wire for it (nothing for an ordinary connection).
    public func answer(bodyLimit: Int) -> [UInt8] {
        switch self {
        case .ordinary:
            return []
        case .http2Preface:
            let debug = Array("stubd speaks HTTP/1.1 here (--http2 off, or the proxy port): send HTTP/1.1 (drop --http2-prior-knowledge, or OkHttp's H2_PRIOR_KNOWLEDGE)".utf8)
            let settings: [UInt8] = [0, 0, 0, 0x4, 0, 0, 0, 0, 0]
            let length = 8 + debug.count
            // GOAWAY: last stream 0, error HTTP_1_1_REQUIRED (0xd).
            let goaway: [UInt8] = [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), 0x7, 0, 0, 0, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0x0D] + debug
            return settings + goaway
        case .unreadableLength:
            let body = #"{"error":"Content-Length is 2^63 - 1 or more, a body no client can send; send the body's real length"}"#
            return Array(("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        case .expectBadLength:
            // stubd's JSON error shape, written out: the text has nothing to escape.
            let body = #"{"error":"Content-Length is not a decimal number of bytes (RFC 9110 §8.6: digits only); fix the client"}"#
            return Array(("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        case .expectTooLarge(let length):
            let size = length == Int.max ? "\(Int.max) or more" : "\(length)"
            let body = #"{"error":"request body of \#(size) bytes is over the \#(bodyLimit)-byte limit","limit":\#(bodyLimit)}"#
            return Array(("HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nConnection: close\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        }
    }

    /// The log line for it.
    var logLine: String? {
        switch self {
        case .ordinary: return nil
        case .http2Preface: return "a client spoke HTTP/2 with prior knowledge where stubd speaks HTTP/1.1 (--http2 off, or the proxy port): answered GOAWAY HTTP_1_1_REQUIRED"
        case .expectTooLarge(let length): return "a request announced a \(length)-byte body with Expect: 100-continue: answered 413 at once"
        case .expectBadLength: return "a request announced a Content-Length that is not digits with Expect: 100-continue: answered 400 at once"
        case .unreadableLength: return "a request announced a Content-Length of 2^63 - 1 or more: answered 400 at once"
        }
    }
}
