/// What HTTP/1.1 allows in header names and values (RFC 9110 §5.1, §5.5), so a fixture cannot
/// ask for a header that would be refused or silently dropped on the wire.
enum HTTPSyntax {
    /// `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// A description of the first character a field value cannot hold (CR, LF, NUL and other
    /// control characters except tab), or nil when the value is valid.
    static func firstInvalidFieldValueCharacter(_ value: String) -> String? {
        for scalar in value.unicodeScalars where (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F {
            switch scalar {
            case "\r": return "a carriage return (CR)"
            case "\n": return "a line feed (LF)"
            default: return "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
            }
        }
        return nil
    }
}
