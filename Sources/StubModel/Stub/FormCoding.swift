import Foundation

/// Parsing of `application/x-www-form-urlencoded` text and query strings into decoded pairs.
///
/// `+` is a space, as the form encoding and the WHATWG URL standard's query parsing say — what
/// browsers, `URLSearchParams`, Python requests and `curl --data-urlencode` send — and `%2B` a
/// plus (Alamofire and OkHttp send `%20` and `%2B`, so no Moya request reads differently). A
/// missing `=` gives an empty value; an undecodable escape is kept as written so it can still be
/// matched. `plusIsSpace: false` reads `+` literally: matching tries it too, so a fixture written
/// with a literal `+` before stubd read it as a space keeps matching.
public enum FormCoding {
    /// The decoded pairs of `a=1&b=2`, in order; empty components are skipped.
    public static func decodePairs(_ text: Substring, plusIsSpace: Bool = true) -> [NameValue] {
        var pairs: [NameValue] = []
        for component in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = component.firstIndex(of: "=") {
                pairs.append(NameValue(decodeComponent(component[..<equals], plusIsSpace: plusIsSpace),
                                       decodeComponent(component[component.index(after: equals)...], plusIsSpace: plusIsSpace)))
            } else {
                pairs.append(NameValue(decodeComponent(component, plusIsSpace: plusIsSpace), ""))
            }
        }
        return pairs
    }

    /// The decoded pairs of a whole string.
    public static func decodePairs(_ text: String, plusIsSpace: Bool = true) -> [NameValue] {
        decodePairs(Substring(text), plusIsSpace: plusIsSpace)
    }

    /// One name or value of a form or query: `+` a space (unless `plusIsSpace` is false), then
    /// percent-decoded.
    public static func decodeComponent(_ text: Substring, plusIsSpace: Bool = true) -> String {
        guard plusIsSpace, text.utf8.contains(UInt8(ascii: "+")) else { return decode(text) }
        return decode(Substring(String(text).replacingOccurrences(of: "+", with: " ")))
    }

    /// Whether `text` has a `+` that the two readings decode differently.
    public static func hasPlus(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "+"))
    }

    /// Percent-decodes (a path segment: `+` is a plus); invalid escapes are kept verbatim.
    public static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(text).removingPercentEncoding ?? String(text)
    }
}
