import TargetModel

/// Compares a request with a route's pattern and explains every difference, so a miss can say
/// exactly what to fix in the client or the fixture.
struct RequestMatcher {
    /// The request, decoded once for all the candidates it is compared with.
    struct DecodedRequest {
        let request: IncomingRequest
        let path: String
        let query: [NameValue]

        init(_ request: IncomingRequest) {
            self.request = request
            self.path = request.decodedPath
            self.query = FormCoding.decodePairs(request.rawQuery ?? "").sorted()
        }
    }

    /// The differences between `request` and `pattern`, empty when the request matches.
    /// `method` and `path` are included so near-miss reports can use the same list.
    static func differences(_ request: DecodedRequest, _ pattern: RequestPattern) -> [String] {
        var differences: [String] = []
        if request.request.method != pattern.method {
            differences.append("method: expected \(pattern.method), got \(request.request.method)")
        }
        if request.path != pattern.path {
            differences.append("path: expected \(pattern.path), got \(request.path)")
        }
        differences += pairDifferences(label: "query", expected: pattern.query, got: request.query)
        for header in pattern.headers {
            let values = request.request.headers.filter { $0.name.lowercased() == header.name }.map(\.value)
            if values.isEmpty {
                differences.append("header \(header.name): expected \"\(header.value)\", missing")
            } else if !values.contains(header.value) {
                differences.append("header \(header.name): expected \"\(header.value)\", got \"\(values[0])\"")
            }
        }
        if let body = bodyDifference(request.request.body, pattern.body) { differences.append(body) }
        return differences
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

    static func bodyDifference(_ body: [UInt8], _ pattern: BodyPattern) -> String? {
        switch pattern {
        case .any:
            return nil
        case .bytes(let expected):
            return body == expected ? nil : "body: expected \(expected.count) exact bytes, got \(body.count) different bytes"
        case .json(let expected):
            guard let json = try? JSONParser.parse(body) else { return "body: expected JSON \(expected), got a body that is not JSON" }
            return json == expected ? nil : "body: expected JSON \(expected), got \(json)"
        case .form(let expected):
            let got = FormCoding.decodePairs(String(decoding: body, as: UTF8.self)).sorted()
            let differences = pairDifferences(label: "form field", expected: expected, got: got)
            return differences.isEmpty ? nil : "body: " + differences.joined(separator: "; ")
        }
    }
}
