import StubModel

/// The decoded query pairs must be exactly these, as a multiset: order is free (Alamofire's
/// nested-dictionary order is random per process), a missing, extra or changed pair does not match.
struct QueryMatcher: RequestPartMatcher {
    /// Sorted once here, so matching is one comparison with the request's sorted pairs.
    let expected: [NameValue]

    init(expected: [NameValue]) {
        self.expected = expected.sorted()
    }

    func matches(_ request: RequestView) -> Bool { request.query == expected }

    func explain(_ request: RequestView) -> [String] {
        PairDifferences.between(label: "query", expected: expected, got: request.query, redactor: request.redactor)
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
