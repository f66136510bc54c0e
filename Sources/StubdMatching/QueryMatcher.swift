import StubModel
import Recording
import StubdEngine
import Foundation

/// The decoded query pairs must be exactly these, as a multiset: order is free (Alamofire's
/// nested-dictionary order is random per process), a missing, extra or changed pair does not match.
/// Names in `present` (shape matching) must appear with any value; they are set aside before the
/// other pairs are compared.
struct QueryMatcher: RequestPartMatcher {
    /// Sorted once here, so matching is one comparison with the request's sorted pairs.
    let expected: [NameValue]
    let present: [String]
    /// Names compared by a value matcher, set aside like `present`.
    let tests: [(name: String, test: ValueTest)]
    /// Other parameters may be present (the pairs in `expected` must be among the request's).
    let othersAllowed: Bool
    private let setAside: Set<String>

    init(_ rule: QueryPattern) {
        self.expected = rule.pairs.sorted()
        self.present = rule.present
        self.tests = rule.matches.map { ($0.name, ValueTest($0.match)) }
        self.othersAllowed = rule.othersAllowed
        self.setAside = Set(rule.present + rule.matches.map(\.name))
    }

    /// The query read with `+` as a space, or — for a fixture written when stubd read `+` as a
    /// plus — with `+` as a plus (only computed when the query has a `+`).
    @inline(__always)
    func matches(_ request: RequestView) -> Bool {
        if matches(request.query, request: request) { return true }
        return request.literalQuery.map { matches($0, request: request) } ?? false
    }

    private func matches(_ query: [NameValue], request: RequestView) -> Bool {
        if setAside.isEmpty && !othersAllowed { return query == expected }
        let names = Set(query.map(\.name))
        guard present.allSatisfy(names.contains) else { return false }
        for (name, test) in tests where !test.accepts(query.filter { $0.name == name }.map(\.value), budget: request.regexBudget) { return false }
        let rest = query.filter { !setAside.contains($0.name) }
        return othersAllowed ? Self.contains(rest, expected) : rest == expected
    }

    /// Whether the sorted multiset `all` contains every pair of the sorted multiset `part`.
    static func contains(_ all: [NameValue], _ part: [NameValue]) -> Bool {
        var remaining = all
        for pair in part {
            guard let index = remaining.firstIndex(of: pair) else { return false }
            remaining.remove(at: index)
        }
        return true
    }

    func explain(_ request: RequestView) -> [String] { explain(request, suggestingAnyOtherQuery: true) }

    /// `explain`, with the `anyOtherQuery` fix named on the first unexpected parameter only when
    /// `suggestingAnyOtherQuery` — a route on the request's own method and path, where it is the fix.
    func explain(_ request: RequestView, suggestingAnyOtherQuery: Bool) -> [String] {
        let names = Set(request.query.map(\.name))
        var out = present.filter { !names.contains($0) }.map { "query \($0): expected (any value), missing" }
        for (name, test) in tests {
            let values = request.query.filter { $0.name == name }.map(\.value)
            if !test.accepts(values, budget: request.regexBudget) {
                out.append("query \(name): expected \(test.match), got \(values.first.map { "\"\(request.redactor.value($0, named: name))\"" } ?? "missing")")
            }
        }
        let rest = request.query.filter { !setAside.contains($0.name) }
        if othersAllowed {
            let extra = rest.filter { pair in !expected.contains { $0.name == pair.name } }
            return out + PairDifferences.between(label: "query", expected: expected, got: rest.filter { !extra.contains($0) }, redactor: request.redactor)
        }
        return out + PairDifferences.between(label: "query", expected: expected, got: rest, redactor: request.redactor,
                                             suggestingAnyOtherQuery: suggestingAnyOtherQuery)
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
    static func between(label: String, expected: [NameValue], got: [NameValue], redactor: Redactor = .off,
                        suggestingAnyOtherQuery: Bool = true) -> [String] {
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
                let hint = onlySpacesDiffer(pair.value, remaining[index].value)
                    ? " (only a space's encoding differs: in a query or form `+` is a space and `%2B` a plus; write the value with a space, or send %2B for a plus)"
                    : ""
                differences.append("\(label) \(pair.name): expected \"\(shown(pair))\", got \"\(shown(remaining[index]))\"\(hint)")
                remaining.remove(at: index)
            } else {
                differences.append("\(label) \(pair.name): expected \"\(shown(pair))\", missing")
            }
        }
        for (position, extra) in remaining.enumerated() {
            // A query names every parameter by default (Moya's exactness); the first extra one says
            // the one-word fix, since cache-busters and analytics parameters are the usual cause.
            let fix = position == 0 && label == "query" && suggestingAnyOtherQuery
                ? #"; "anyOtherQuery": true on the route's request allows parameters it does not name"#
                : ""
            differences.append("\(label) \(extra.name): unexpected (\"\(shown(extra))\")\(fix)")
        }
        return differences
    }

    /// Whether two values are the same once every `+` is read as a space.
    static func onlySpacesDiffer(_ expected: String, _ got: String) -> Bool {
        expected != got && expected.replacingOccurrences(of: "+", with: " ") == got.replacingOccurrences(of: "+", with: " ")
    }
}
