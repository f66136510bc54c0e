import Foundation

/// How a route's path is matched: one exact path, or a template such as `/users/{login}`.
///
/// Both compare *segments after percent-decoding*, with empty segments dropped, so the forms that
/// different Foundation versions produce for the same target meet: `/v1//users` (legacy CFURL
/// joining `https://h/v1/` and `/users`) equals `/v1/users` (swift-foundation), and `a;b` equals
/// `a%3Bb`. A trailing slash is significant (`/users/` is not `/users`), as it is on the wire.
public enum PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// An exact path, held as decoded segments.
    case literal(PathSegments)
    /// A template; `{name}` segments match any one non-empty segment.
    case template(PathTemplate)
    /// A regular expression over the whole percent-decoded path (`/users/[0-9]+`); tried only
    /// when no literal or template route of the method matches.
    case regex(String)
    /// A regular expression over the whole path and query as sent, still percent-encoded
    /// (`/search\\?q=[a-z]+&page=\\d`): WireMock's `urlPattern`, where the query is part of the
    /// pattern. Tried with the path patterns.
    case urlRegex(String)

    /// Whether the pattern matches the query too (`urlRegex`), so no query is compared apart.
    public var coversQuery: Bool {
        if case .urlRegex = self { return true }
        return false
    }

    /// Whether this is a template.
    public var isTemplate: Bool {
        if case .template = self { return true }
        return false
    }

    /// The path as it reads in listings and reports (decoded; `{name}` for parameters).
    public var description: String {
        switch self {
        case .literal(let path): return path.description
        case .template(let template): return template.description
        case .regex(let pattern): return "~\(pattern)"
        case .urlRegex(let pattern): return "~url:\(pattern)"
        }
    }
}

/// A path split into percent-decoded segments, empty segments dropped.
public struct PathSegments: Sendable, Hashable, CustomStringConvertible {
    /// The decoded segments, without empty ones.
    public let segments: [String]
    /// Whether the path ended in `/` (after at least one segment).
    public let trailingSlash: Bool

    /// Splits a raw (percent-encoded) path as sent on the wire.
    public init(raw: Substring) {
        var segments: [String] = []
        let utf8 = raw.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == UInt8(ascii: "/") {
                if index != start { segments.append(FormCoding.decode(Substring(utf8[start..<index]))) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start != utf8.endIndex { segments.append(FormCoding.decode(Substring(utf8[start...]))) }
        self.segments = segments
        self.trailingSlash = !segments.isEmpty && utf8.last == UInt8(ascii: "/")
    }

    /// Splits a raw path.
    public init(raw: String) { self.init(raw: Substring(raw)) }

    /// One string that identifies these segments (what exact routes are hashed on): decoded
    /// segments joined by `/`, with `%` and `/` inside a segment escaped so no two paths collide.
    public var key: String {
        var out = "/"
        for (index, segment) in segments.enumerated() {
            if index > 0 { out += "/" }
            if segment.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "/") }) {
                out += segment.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            } else {
                out += segment
            }
        }
        if trailingSlash { out += "/" }
        return out
    }

    /// The `key` of a raw request path, without splitting it when it needs no decoding (no `%`,
    /// no empty segment): then the raw path is its own key. This is the serving path's fast case.
    public static func key(raw: String) -> String {
        // Read as contiguous bytes: a loop over `utf8` cost about 400 instructions for a short
        // path, on every request.
        let clean = raw.utf8.withContiguousStorageIfAvailable(isOwnKey) ?? Array(raw.utf8).withUnsafeBufferPointer(isOwnKey)
        return clean ? raw : PathSegments(raw: raw).key
    }

    /// Whether a raw path is already its own key: it starts with `/`, has no `%` and no `//`.
    private static func isOwnKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        var previous: UInt8 = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "/") && previous == UInt8(ascii: "/")) { return false }
            previous = byte
        }
        return true
    }

    /// The decoded path (`/users/John Doe`), for people.
    public var description: String {
        "/" + segments.joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    /// The path percent-encoded for the wire: each segment escaped on its own, so a decoded `/`
    /// inside a segment becomes `%2F` again.
    public var wireForm: String {
        "/" + segments.map(PathSegments.encode).joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    static func encode(_ segment: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}

/// A path with `{name}` parameter segments, e.g. `/repos/{owner}/{repo}/issues`.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a template.
    public enum Segment: Sendable, Hashable {
        /// Must equal this decoded text.
        case literal(String)
        /// Matches any one non-empty segment.
        case parameter(String)
    }

    /// The segments.
    public let segments: [Segment]
    /// Whether the template ends in `/`.
    public let trailingSlash: Bool

    /// Parses a template from its raw (wire) form; a segment is a parameter when it is exactly
    /// `{name}`. Returns a problem sentence when the template is malformed.
    public static func parse(_ raw: String) -> Result<PathTemplate, TemplateProblem> {
        let path = PathSegments(raw: raw)
        var names = Set<String>()
        var segments: [Segment] = []
        for segment in path.segments {
            if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
                let name = String(segment.dropFirst().dropLast())
                guard !name.contains("{"), !name.contains("}") else { return .failure(.init("segment \"\(segment)\" is not a {name} parameter")) }
                guard names.insert(name).inserted else { return .failure(.init("parameter {\(name)} appears twice")) }
                segments.append(.parameter(name))
            } else if segment.contains("{") || segment.contains("}") {
                return .failure(.init("segment \"\(segment)\" mixes text and braces; a parameter must be a whole segment, e.g. /users/{login}"))
            } else {
                segments.append(.literal(segment))
            }
        }
        guard !names.isEmpty else { return .failure(.init("has no {name} parameter; use \"path\" for a fixed path")) }
        return .success(PathTemplate(segments: segments, trailingSlash: path.trailingSlash))
    }

    /// A problem with a template.
    public struct TemplateProblem: Error {
        /// What is wrong.
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// `/users/{login}`.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): return text
            case .parameter(let name): return "{\(name)}"
            }
        }.joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    /// The template for the wire: literal segments percent-encoded, parameters as `{name}`.
    public var wireForm: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): return PathSegments.encode(text)
            case .parameter(let name): return "{\(name)}"
            }
        }.joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    /// Whether a concrete path fits the template.
    public func matches(_ path: PathSegments) -> Bool {
        guard path.segments.count == segments.count, path.trailingSlash == trailingSlash else { return false }
        for (segment, actual) in zip(segments, path.segments) {
            if case .literal(let text) = segment, text != actual { return false }
        }
        return true
    }
}
