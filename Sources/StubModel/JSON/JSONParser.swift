/// Why a JSON text could not be parsed, with the 1-based line and column of the fault.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// 1-based line of the offending character.
    public let line: Int
    /// 1-based column (in bytes) of the offending character.
    public let column: Int
    /// What was expected or found.
    public let message: String

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Written here rather than using `JSONSerialization` so fixture errors can point at a line and
/// column, duplicate keys are caught, and booleans never turn into numbers.
public struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// Jackson's leniency as WireMock configures it: `//` and `/* */` comments, and a repeated
    /// key replacing the earlier value (in the earlier place).
    private var lenient = false

    /// Parses a whole document; trailing non-space text is an error. A UTF-8 byte order mark
    /// (which some Windows editors write) is skipped; text that is not valid UTF-8 is an error at
    /// its first bad byte.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes, lenient: false)
    }

    /// Parses as WireMock reads its mapping files (Jackson with comments allowed): comments are
    /// white space and a repeated key's last value wins. Everything else stays strict.
    public static func parse(_ bytes: [UInt8], lenient: Bool) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.lenient = lenient
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipSpace()
        let value = try parser.parseValue()
        parser.skipSpace()
        if parser.index < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            case UInt8(ascii: "/") where lenient && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case UInt8(ascii: "/") where lenient && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var end = index + 2
                while end + 1 < bytes.count && !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                guard end + 1 < bytes.count else { return }  // never closed: left for the caller to report
                index = end + 2
            default: return
            }
        }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            if byte >= 0x80 { throw error("unexpected byte 0x\(String(byte, radix: 16, uppercase: true)); expected a value") }
            throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'; expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        for expected in word.utf8 {
            guard current == expected else { throw error("invalid literal; expected '\(word)'") }
            index += 1
        }
    }

    /// Arrays and objects nest at most this deep: deeper is refused, never recursed into.
    public static let maxDepth = 512
    /// Objects with fewer members look a key up by scanning them (cheaper than hashing).
    private static let linearKeys = 16

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        // Past a few members, keys are found by hash: a linear search per key made an object of
        // 200,000 keys quadratic (a request body held a loop for a minute).
        var positions: [String: Int] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let keyStart = index
            let key = try parseString()
            if members.count == Self.linearKeys {
                positions.reserveCapacity(2 * Self.linearKeys)
                for (position, member) in members.enumerated() { positions[member.key] = position }
            }
            let earlier = members.count < Self.linearKeys ? members.firstIndex { $0.key == key } : positions[key]
            if earlier != nil && !lenient {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipSpace()
            let value = try parseValue()
            if let earlier {
                members[earlier].value = value
            } else {
                if members.count >= Self.linearKeys { positions[key] = members.count }
                members.append((key, value))
            }
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try parseValue())
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("invalid number")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw error("invalid number: digits expected in exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .number(value)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var runStart = index
        var result = ""
        func flushRun(_ end: Int) throws(JSONSyntaxError) {
            guard end > runStart else { return }
            guard let text = String(validating: bytes[runStart..<end], as: UTF8.self) else {
                index = runStart + Self.firstInvalidUTF8(bytes[runStart..<end])
                throw error("invalid UTF-8 (byte 0x\(String(bytes[index], radix: 16, uppercase: true))); save the file as UTF-8")
            }
            result += text
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                try flushRun(index)
                index += 1
                return result
            }
            if byte < 0x20 { throw error("control character in string; escape it") }
            if byte == UInt8(ascii: "\\") {
                try flushRun(index)
                index += 1
                let scalar = try parseEscape()
                result.unicodeScalars.append(scalar)
                runStart = index
                continue
            }
            index += 1
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate in \\u escape")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(value)!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("lone low surrogate in \\u escape") }
            return scalar
        default:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("expected 4 hex digits in \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The offset of the first byte that does not belong to a valid UTF-8 sequence.
    private static func firstInvalidUTF8(_ run: ArraySlice<UInt8>) -> Int {
        var offset = 0
        let bytes = Array(run)
        while offset < bytes.count {
            let lead = bytes[offset]
            let length: Int
            switch lead {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return offset
            }
            guard offset + length <= bytes.count,
                  String(validating: bytes[offset..<(offset + length)], as: UTF8.self) != nil else { return offset }
            offset += length
        }
        return max(0, bytes.count - 1)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
