import StubModel

/// Framing problems libevent 2.1 lets through that stubd refuses itself, before routing, each
/// answered 400 with `Connection: close` (RFC 9112 §6.3: a server must not guess at framing; a
/// proxy in front that guesses differently is how request smuggling starts):
/// - two different `Content-Length` values (libevent takes the first);
/// - a `Content-Length` that is not only digits (`+7`, `0x10`, `1 2`);
/// - a header name that is not an HTTP token (`Content-Length : 2`, with a space before the colon,
///   which libevent keeps as a different name and so reads no body — RFC 9112 §5.1 says reject).
enum ProtocolChecks {
    static func refusal(for request: IncomingRequest) -> PreparedReply? {
        var first: Substring?
        for header in request.headers {
            if !isToken(header.name) {
                return badRequest("the header name \\\"\(escaped(header.name))\\\" is not a token (no spaces before the colon); fix the client")
            }
            guard header.name.equalsIgnoringCase("Content-Length") else { continue }
            guard let value = Self.decimal(header.value) else {
                return badRequest("Content-Length \\\"\(escaped(header.value))\\\" is not a decimal number of bytes")
            }
            if let first, first != value { return badRequest("two different Content-Length values; send one") }
            first = value
        }
        return nil
    }

    private static func badRequest(_ message: String) -> PreparedReply {
        PreparedReply(status: 400, headers: [NameValue("Content-Type", "application/json")],
                      body: Array("{\"error\": \"\(message)\"}\n".utf8))
    }

    /// `tchar` of RFC 9110 §5.6.2. Runs for every header of every request, so it reads a
    /// 256-entry table per byte.
    static func isToken(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            return tokenTable.withUnsafeBufferPointer { table in bytes.allSatisfy { table[Int($0)] } }
        }
    }

    private static let tokenTable: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        return (byte &- 48 < 10) || (byte &- 65 < 26) || (byte &- 97 < 26) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
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
