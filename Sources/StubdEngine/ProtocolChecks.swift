import StubdHTTP
import Foundation

/// Framing problems libevent 2.1 lets through that stubd refuses itself, before routing, each
/// answered 400 with `Connection: close` (RFC 9112 §6.3: a server must not guess at framing; a
/// proxy in front that guesses differently is how request smuggling starts):
/// - two different `Content-Length` values (libevent takes the first);
/// - a `Content-Length` that is not only digits (`+7`, `0x10`, `1 2`);
/// - a header name ending in whitespace (`Content-Length : 2`, a space before the colon, which
///   libevent keeps as a different name and so reads no body — RFC 9112 §5.1 says reject);
/// - a `Transfer-Encoding` other than `chunked` (`xchunked`, `gzip, chunked`), which libevent
///   ignores and then reads the body by `Content-Length`: 501, as RFC 9112 §6.1 says for a coding
///   the server does not understand.
/// Public for `make fuzz` (Fuzz/FuzzHTTPHead); the engine applies it to every request.
public enum ProtocolChecks {
    /// The 400 or 501 for `request`'s framing, or nil when it is sound.
    public static func refusal(for request: IncomingRequest) -> PreparedReply? {
        var first: Substring?
        let headers = request.headers
        // Indexed in place, names read as contiguous bytes: copying each header out (and a
        // `var` copy of its name for `withUTF8`) cost a retain and release per string per request.
        for index in headers.indices {
            let header = headers[index]
            // Whitespace before the colon (`Content-Length : 2`) is what lets two parsers read
            // one head differently; libevent keeps it in the name. Checked on the last byte only,
            // so a request pays almost nothing for it; `Content-Length` compared only at its length.
            let (token, kind) = header.name.utf8.withContiguousStorageIfAvailable(Self.classify)
                ?? Array(header.name.utf8).withUnsafeBufferPointer(Self.classify)
            if !token {
                return badRequest("the header name \\\"\(escaped(header.name))\\\" ends in whitespace (a space before the colon); fix the client")
            }
            if kind == .transferEncoding {
                guard header.value.trimmingCharacters(in: [" ", "\t"]).lowercased() == "chunked" else {
                    return reply(501, "Transfer-Encoding \\\"\(escaped(header.value))\\\" is not understood; stubd reads chunked bodies only (RFC 9112 §6.1)")
                }
                continue
            }
            guard kind == .contentLength else { continue }
            guard let value = Self.decimal(header.value) else {
                return badRequest("Content-Length \\\"\(escaped(header.value))\\\" is not a decimal number of bytes")
            }
            if let first, first != value { return badRequest("two different Content-Length values; send one") }
            first = value
        }
        return nil
    }

    /// The framing headers the checks read.
    private enum Kind {
        case other, contentLength, transferEncoding
    }

    /// Whether a header name is a token as far as its last byte goes, and whether it is
    /// `Content-Length` or `Transfer-Encoding` (in any case), compared only at their lengths.
    private static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> (token: Bool, kind: Kind) {
        guard let last = bytes.last, last != 32, last != 9 else { return (false, .other) }
        let (name, kind): ([UInt8], Kind)
        switch bytes.count {
        case contentLengthBytes.count: (name, kind) = (contentLengthBytes, .contentLength)
        case transferEncodingBytes.count: (name, kind) = (transferEncodingBytes, .transferEncoding)
        default: return (true, .other)
        }
        for index in 0..<bytes.count where bytes[index] | 0x20 != name[index] { return (true, .other) }
        return (true, kind)
    }

    /// `content-length`, `transfer-encoding`, lower case (token bytes `| 0x20` lower letters and keep `-`).
    private static let contentLengthBytes = Array("content-length".utf8)
    private static let transferEncodingBytes = Array("transfer-encoding".utf8)

    private static func badRequest(_ message: String) -> PreparedReply {
        reply(400, message)
    }

    static func reply(_ status: Int, _ message: String) -> PreparedReply {
        PreparedReply(status: status, headers: [NameValue("Content-Type", "application/json")],
                      body: Array("{\"error\": \"\(message)\"}\n".utf8))
    }

    /// The digits of a `Content-Length` value without the spaces or tabs around them; nil when
    /// anything else is there.
    static func decimal(_ value: String) -> Substring? {
        var digits = Substring(value)
        while let first = digits.first, first == " " || first == "\t" { digits.removeFirst() }
        while let last = digits.last, last == " " || last == "\t" { digits.removeLast() }
        return !digits.isEmpty && digits.utf8.allSatisfy({ $0 &- 48 < 10 }) ? digits : nil
    }

    /// Printable ASCII only, quotes and backslashes escaped: safe inside the JSON error.
    private static func escaped(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).flatMap { scalar -> [Unicode.Scalar] in
            if scalar == "\"" || scalar == "\\" { return ["\\", scalar] }
            return scalar.value >= 0x20 && scalar.value < 0x7f ? [scalar] : ["?"]
        }))
    }
}
