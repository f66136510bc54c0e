import TargetModel

/// Compares a request with a route's pattern and explains every difference, so a miss can say
/// exactly what to fix in the client or the fixture: the method, a path segment, a query or form
/// pair, a header, a JSON field or a multipart part.
struct RequestMatcher {
    /// The request, decoded once for all the candidates it is compared with.
    struct DecodedRequest {
        let request: IncomingRequest
        /// The canonical path key (see `PathSegments.key`).
        let pathKey: String
        let query: [NameValue]

        /// Decoded segments when already computed (near misses compute them once for all routes).
        var decodedPath: PathSegments?

        /// The decoded segments; computed on demand (templates and near misses only).
        var path: PathSegments { decodedPath ?? PathSegments(raw: request.rawPath) }

        init(_ request: IncomingRequest) {
            self.request = request
            self.pathKey = PathSegments.key(raw: request.rawPath)
            if let rawQuery = request.rawQuery, !rawQuery.isEmpty {
                self.query = FormCoding.decodePairs(rawQuery).sorted()
            } else {
                self.query = []
            }
        }
    }

    /// The differences between `request` and `pattern`; empty when the request matches.
    /// Lookup passes `checkMethodAndPath: false` for candidates the index already selected.
    static func differences(_ request: DecodedRequest, _ pattern: RequestPattern, checkMethodAndPath: Bool = true) -> [String] {
        var differences: [String] = []
        if checkMethodAndPath {
            if request.request.method != pattern.method {
                differences.append("method: expected \(pattern.method), got \(request.request.method)")
            }
            differences += pathDifferences(request.path, pattern.path)
        }
        if pattern.query != request.query {
            differences += pairDifferences(label: "query", expected: pattern.query, got: request.query)
        }
        for header in pattern.headers {
            let values = request.request.headers.filter { $0.name.equalsIgnoringCase(header.name) }.map(\.value)
            if values.isEmpty {
                differences.append("header \(header.name): expected \"\(header.value)\", missing")
            } else if !values.contains(header.value) {
                differences.append("header \(header.name): expected \"\(header.value)\", got \"\(values[0])\"")
            }
        }
        differences += bodyDifferences(request.request, pattern.body)
        return differences
    }

    static func pathDifferences(_ path: PathSegments, _ pattern: PathPattern) -> [String] {
        switch pattern {
        case .literal(let expected):
            if expected == path { return [] }
            if expected.segments.count == path.segments.count {
                var out: [String] = []
                for (index, pair) in zip(expected.segments, path.segments).enumerated() where pair.0 != pair.1 {
                    out.append("path segment \(index + 1): expected \"\(pair.0)\", got \"\(pair.1)\"")
                }
                if expected.trailingSlash != path.trailingSlash {
                    out.append(expected.trailingSlash ? "path: expected a trailing /" : "path: unexpected trailing /")
                }
                return out
            }
            return ["path: expected \(expected), got \(path)"]
        case .template(let template):
            return template.matches(path) ? [] : ["path: expected \(template), got \(path)"]
        }
    }

    /// Multiset comparison of decoded pairs, reporting missing, extra and changed values.
    static func pairDifferences(label: String, expected: [NameValue], got: [NameValue]) -> [String] {
        if expected == got { return [] }
        var remaining = got
        var missing: [NameValue] = []
        for pair in expected {
            if let index = remaining.firstIndex(of: pair) { remaining.remove(at: index) } else { missing.append(pair) }
        }
        var differences: [String] = []
        for pair in missing {
            if let index = remaining.firstIndex(where: { $0.name == pair.name }) {
                differences.append("\(label) \(pair.name): expected \"\(pair.value)\", got \"\(remaining[index].value)\"")
                remaining.remove(at: index)
            } else {
                differences.append("\(label) \(pair.name): expected \"\(pair.value)\", missing")
            }
        }
        for extra in remaining {
            differences.append("\(label) \(extra.name): unexpected (\"\(extra.value)\")")
        }
        return differences
    }

    static func bodyDifferences(_ request: IncomingRequest, _ pattern: BodyPattern) -> [String] {
        let body = request.body
        switch pattern {
        case .any:
            return []
        case .bytes(let expected):
            return body == expected ? [] : ["body: expected \(expected.count) exact bytes, got \(body.count) different bytes"]
        case .json(let expected):
            guard let json = try? JSONParser.parse(body) else { return ["body: expected JSON \(expected), got a body that is not JSON"] }
            return JSONDifference.between(expected: expected, got: json).map { "body field \($0)" }
        case .form(let expected):
            let got = FormCoding.decodePairs(String(decoding: body, as: UTF8.self)).sorted()
            return pairDifferences(label: "form field", expected: expected, got: got)
        case .multipart(let expected):
            guard let contentType = request.header("Content-Type"),
                  let boundary = MultipartEncoding.boundary(fromContentType: contentType) else {
                return ["header content-type: expected multipart/form-data with a boundary, got \(request.header("Content-Type").map { "\"\($0)\"" } ?? "none")"]
            }
            guard let parts = MultipartEncoding.parse(body, boundary: boundary) else {
                return ["body: expected multipart/form-data with boundary \(boundary), got a malformed body"]
            }
            return partDifferences(expected: expected, got: parts)
        }
    }

    static func partDifferences(expected: [MultipartPart], got: [MultipartPart]) -> [String] {
        guard expected.count == got.count else {
            return ["body: expected \(expected.count) parts (\(expected.map(\.name).joined(separator: ", "))), got \(got.count) (\(got.map(\.name).joined(separator: ", ")))"]
        }
        var out: [String] = []
        for (index, pair) in zip(expected, got).enumerated() where pair.0 != pair.1 {
            let (want, have) = pair
            let label = "body part \(index + 1) (\(want.name))"
            if want.name != have.name { out.append("\(label): expected name \"\(want.name)\", got \"\(have.name)\"") }
            if want.fileName != have.fileName { out.append("\(label): expected filename \(want.fileName ?? "none"), got \(have.fileName ?? "none")") }
            if want.contentType != have.contentType { out.append("\(label): expected Content-Type \(want.contentType ?? "none"), got \(have.contentType ?? "none")") }
            if want.body != have.body { out.append("\(label): expected \(want.body.count) bytes, got \(have.body.count) different bytes") }
        }
        return out
    }
}
