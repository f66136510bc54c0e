/// Escaping for text placed in HTML or XML (attribute values included): Handlebars' set, whose
/// numeric references (`&#x27;`) XML reads as well — one function for WireMock-dialect templates
/// and the JUnit report of `stubd verify`.
public enum MarkupEscaping {
    /// `text` with `& < > " ' ` =` written as character references.
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { "&<>\"'`=".contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#x27;"
            case "`": out += "&#x60;"
            case "=": out += "&#x3D;"
            default: out.append(character)
            }
        }
        return out
    }
}
