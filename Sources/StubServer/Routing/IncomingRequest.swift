import TargetModel

/// A request as the engine received it, in Swift types: what routing and logging work on.
///
/// The path and query are kept raw (percent-encoded, as on the wire) and decoded by the matcher,
/// so nothing is decoded for requests that never need it.
public struct IncomingRequest: Sendable {
    /// The method from the request line.
    public var method: String
    /// The path as sent, percent-encoded, without query or fragment.
    public var rawPath: String
    /// The query as sent (after `?`), or nil when there is none.
    public var rawQuery: String?
    /// Headers in arrival order, names as sent.
    public var headers: [NameValue]
    /// The (de-chunked) body.
    public var body: [UInt8]

    /// Creates a request.
    public init(method: String, rawPath: String, rawQuery: String? = nil, headers: [NameValue] = [], body: [UInt8] = []) {
        self.method = method
        self.rawPath = rawPath
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
    }

    /// Splits a request-target (`/a/b?x=1`, or the absolute form `http://host/a?x=1`) into path
    /// and query; a fragment is dropped.
    public init(method: String, target: String, headers: [NameValue] = [], body: [UInt8] = []) {
        var rest = Substring(target)
        if let schemeEnd = rest.range(of: "://"), rest.prefix(upTo: schemeEnd.lowerBound).allSatisfy({ $0.isLetter }) {
            let afterScheme = rest[schemeEnd.upperBound...]
            rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? "/"
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        self.init(method: method, rawPath: rest.isEmpty ? "/" : String(rest), rawQuery: query, headers: headers, body: body)
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringCase(name) }?.value
    }
}

extension String {
    /// ASCII case-insensitive equality, enough for header names.
    func equalsIgnoringCase(_ other: String) -> Bool {
        self.utf8.count == other.utf8.count && self.lowercased() == other.lowercased()
    }
}
