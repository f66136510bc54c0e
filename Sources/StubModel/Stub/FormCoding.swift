import Foundation

/// Parsing of `application/x-www-form-urlencoded` text and query strings into decoded pairs.
///
/// `+` stays a literal plus (Alamofire never writes `+` for a space); a missing `=` gives an
/// empty value; an undecodable escape is kept as written so it can still be matched.
public enum FormCoding {
    /// The decoded pairs of `a=1&b=2`, in order; empty components are skipped.
    public static func decodePairs(_ text: Substring) -> [NameValue] {
        var pairs: [NameValue] = []
        for component in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = component.firstIndex(of: "=") {
                pairs.append(NameValue(decode(component[..<equals]), decode(component[component.index(after: equals)...])))
            } else {
                pairs.append(NameValue(decode(component), ""))
            }
        }
        return pairs
    }

    /// The decoded pairs of a whole string.
    public static func decodePairs(_ text: String) -> [NameValue] {
        decodePairs(Substring(text))
    }

    /// Percent-decodes; invalid escapes are kept verbatim.
    public static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(text).removingPercentEncoding ?? String(text)
    }
}
