import Foundation

/// Alamofire 5's multipart/form-data layout, so stubd knows the parts a Moya upload sends and a
/// test (or any client) can send the same bytes.
///
/// Per part: `--boundary` (the first part) or `\r\n--boundary` (later ones), `\r\n`,
/// `Content-Disposition: form-data; name="…"[; filename="…"]\r\n`, optionally
/// `Content-Type: …\r\n`, then `\r\n` and the bytes; the body ends with `\r\n--boundary--\r\n`.
public enum MultipartEncoding {
    /// A boundary of Alamofire's shape: `alamofire.boundary.` and 16 lowercase hex digits.
    public static func randomBoundary() -> String {
        String(format: "alamofire.boundary.%08x%08x", UInt32.random(in: .min ... .max), UInt32.random(in: .min ... .max))
    }

    /// The Content-Type header Alamofire sets (replacing any other).
    public static func contentType(boundary: String) -> String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// The encoded body.
    public static func body(_ parts: [MultipartPart], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for (index, part) in parts.enumerated() {
            out += Array((index == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n").utf8)
            var disposition = "form-data; name=\"\(part.name)\""
            if let fileName = part.fileName { disposition += "; filename=\"\(fileName)\"" }
            out += Array("Content-Disposition: \(disposition)\r\n".utf8)
            if let contentType = part.contentType { out += Array("Content-Type: \(contentType)\r\n".utf8) }
            out += Array("\r\n".utf8)
            out += part.body
        }
        out += Array("\r\n--\(boundary)--\r\n".utf8)
        return out
    }

    /// Splits a received multipart body into parts, or nil if it is not well formed for
    /// `boundary`. Linear in the body: a boundary is at most 70 bytes (RFC 2046 §5.1.1; a longer
    /// one, from a request's `Content-Type`, made the scan cost its length times the body's), and
    /// a part's head is looked for inside the part only.
    public static func parse(_ body: [UInt8], boundary: String) -> [MultipartPart]? {
        guard !boundary.isEmpty, boundary.utf8.count <= maxBoundaryBytes else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        var positions: [Int] = []
        var index = 0
        while let found = find(delimiter, in: body, from: index) {
            positions.append(found)
            index = found + delimiter.count
        }
        guard positions.count >= 2 else { return nil }
        var parts: [MultipartPart] = []
        for (start, end) in zip(positions, positions.dropFirst()) {
            var contentStart = start + delimiter.count
            guard body[contentStart...].starts(with: [13, 10]) else { return nil }
            contentStart += 2
            var contentEnd = end
            if contentEnd >= 2, body[contentEnd - 2] == 13, body[contentEnd - 1] == 10 { contentEnd -= 2 }
            guard contentStart <= contentEnd, let headerEnd = find([13, 10, 13, 10], in: body, from: contentStart, before: contentEnd + 2),
                  headerEnd + 4 <= contentEnd || headerEnd + 2 == contentEnd else { return nil }
            let headerText = String(decoding: body[contentStart..<headerEnd], as: UTF8.self)
            let partBody = headerEnd + 4 <= contentEnd ? Array(body[(headerEnd + 4)..<contentEnd]) : []
            var part = MultipartPart(name: "", body: partBody)
            for line in headerText.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-type" { part.contentType = value }
                if name == "content-disposition" {
                    part.name = parameter("name", in: value) ?? ""
                    part.fileName = parameter("filename", in: value)
                }
            }
            parts.append(part)
        }
        let closing = positions.last! + delimiter.count
        guard body[closing...].starts(with: Array("--".utf8)) else { return nil }
        return parts
    }

    /// The boundary parameter of a multipart Content-Type, if it is one.
    public static func boundary(fromContentType contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        return parameter("boundary", in: contentType)
    }

    private static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix(key + "=") else { continue }
            var value = trimmed.dropFirst(key.count + 1)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return String(value)
        }
        return nil
    }

    /// The longest boundary RFC 2046 allows.
    public static let maxBoundaryBytes = 70

    /// Where `needle` starts in `haystack` from `start`, ending at or before `end` (the whole by default).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let limit = min(end ?? haystack.count, haystack.count)
        guard !needle.isEmpty, limit >= needle.count, start <= limit - needle.count else { return nil }
        var index = start
        while index <= limit - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
