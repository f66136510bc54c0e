/// Serialises `JSONValue`s: compact for wire bodies, two-space indented for fixture files.
/// Keys keep their order; `/` is not escaped; integers print without a fraction.
public enum JSONWriter {
    /// The JSON text for `value`.
    public static func write(_ value: JSONValue, pretty: Bool) -> String {
        var out = ""
        write(value, into: &out, pretty: pretty, indent: 0)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String, pretty: Bool, indent: Int) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += format(n)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty { out += "[]"; return }
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += "," }
                newline(&out, pretty: pretty, indent: indent + 1)
                write(element, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                newline(&out, pretty: pretty, indent: indent + 1)
                writeString(member.key, into: &out)
                out += pretty ? ": " : ":"
                write(member.value, into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(&out, pretty: pretty, indent: indent)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, pretty: Bool, indent: Int) {
        guard pretty else { return }
        // One made string per depth, not one per line.
        out += indent < lineStarts.count ? lineStarts[indent] : "\n" + String(repeating: "  ", count: indent)
    }

    /// A newline and the indent of each of the first depths.
    private static let lineStarts = (0..<16).map { "\n" + String(repeating: "  ", count: $0) }

    /// Integers in the exact range print as integers; everything else uses Swift's shortest form.
    public static func format(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 9.007_199_254_740_992e15 { return String(Int64(n)) }
        return "\(n)"
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Most strings need no escape: appended whole (a scalar at a time cost a fifth of a
        // templated JSON answer's instructions).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
