/// `replace`'s literal replacement, as Handlebars.java's (Java's `String.replace`): every
/// occurrence, left to right, none overlapping — over UTF-8 bytes (a valid needle in valid text
/// only ever matches on scalar boundaries) with a Knuth–Morris–Pratt scan, so a needle and a text
/// both from the request cost time linear in the two, and the result is given up as soon as it
/// passes `budget` bytes instead of after it was built.
public enum TextReplacement {
    /// `text` with every `find` replaced, or nil once the result would pass `budget` bytes.
    public static func replacing(_ find: String, with replacement: String, in text: String, budget: Int) -> String? {
        let needle = Array(find.utf8), haystack = Array(text.utf8), insert = Array(replacement.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else {
            return haystack.count <= budget ? text : nil
        }
        // failure[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: needle.count)
        var matched = 0
        for index in 1..<needle.count {
            while matched > 0 && needle[index] != needle[matched] { matched = failure[matched - 1] }
            if needle[index] == needle[matched] { matched += 1 }
            failure[index] = matched
        }
        var out: [UInt8] = []
        out.reserveCapacity(min(haystack.count, budget))
        var copiedUpTo = 0
        matched = 0
        for (index, byte) in haystack.enumerated() {
            while matched > 0 && byte != needle[matched] { matched = failure[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            guard matched == needle.count else { continue }
            let start = index + 1 - needle.count
            guard out.count + (start - copiedUpTo) + insert.count <= budget else { return nil }
            out.append(contentsOf: haystack[copiedUpTo..<start])
            out.append(contentsOf: insert)
            copiedUpTo = index + 1
            matched = 0
        }
        guard out.count + (haystack.count - copiedUpTo) <= budget else { return nil }
        out.append(contentsOf: haystack[copiedUpTo...])
        return String(decoding: out, as: UTF8.self)
    }
}
