import StubModel

/// The decoded query pairs must be exactly these, as a multiset: order is free (Alamofire's
/// nested-dictionary order is random per process), a missing, extra or changed pair does not match.
/// Names in `present` (shape matching) must appear with any value; they are set aside before the
/// other pairs are compared.
struct QueryMatcher: RequestPartMatcher {
    /// Sorted once here, so matching is one comparison with the request's sorted pairs.
    let expected: [NameValue]
    let present: [String]

    init(expected: [NameValue], present: [String] = []) {
        self.expected = expected.sorted()
        self.present = present
    }

    func matches(_ request: RequestView) -> Bool {
        if present.isEmpty { return request.query == expected }
        let names = Set(request.query.map(\.name))
        return present.allSatisfy(names.contains) && request.query.filter { !present.contains($0.name) } == expected
    }

    func explain(_ request: RequestView) -> [String] {
        let names = Set(request.query.map(\.name))
        let missing = present.filter { !names.contains($0) }.map { "query \($0): expected (any value), missing" }
        let rest = request.query.filter { !present.contains($0.name) }
        return missing + PairDifferences.between(label: "query", expected: expected, got: rest, redactor: request.redactor)
    }
}

/// The server a route stands for (`RequestPattern.host`): compared only when the request names
/// a server some route has (`RequestView.knownHost`).
struct HostMatcher: RequestPartMatcher {
    let host: String

    func matches(_ request: RequestView) -> Bool { request.knownHost.map { $0 == host } ?? true }

    func explain(_ request: RequestView) -> [String] {
        guard let named = request.knownHost, named != host else { return [] }
        return ["host: expected \(host), got \(named) (X-Stubd-Host or Host)"]
    }
}

/// Multiset comparison of decoded pairs (query and form bodies), naming missing, extra and
/// changed values.
enum PairDifferences {
    static func between(label: String, expected: [NameValue], got: [NameValue], redactor: Redactor = .off) -> [String] {
        if expected == got { return [] }
        let shown = { (pair: NameValue) in redactor.value(pair.value, named: pair.name) }
        var remaining = got
        var missing: [NameValue] = []
        for pair in expected {
            if let index = remaining.firstIndex(of: pair) { remaining.remove(at: index) } else { missing.append(pair) }
        }
        var differences: [String] = []
        for pair in missing {
            if let index = remaining.firstIndex(where: { $0.name == pair.name }) {
                differences.append("\(label) \(pair.name): expected \"\(shown(pair))\", got \"\(shown(remaining[index]))\"")
                remaining.remove(at: index)
            } else {
                differences.append("\(label) \(pair.name): expected \"\(shown(pair))\", missing")
            }
        }
        for extra in remaining {
            differences.append("\(label) \(extra.name): unexpected (\"\(shown(extra))\")")
        }
        return differences
    }
}
