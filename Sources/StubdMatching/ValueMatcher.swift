import Foundation
import StubModel
import Recording
import StubdEngine

/// A header or cookie that must satisfy a `ValueMatch` (`{"contains": …}`, `{"absent": true}`, …).
struct NamedValueMatcher: RequestPartMatcher {
    enum Source { case header, cookie }
    let name: String
    let source: Source
    let test: ValueTest

    init(_ named: NamedMatch, source: Source) {
        self.name = named.name
        self.source = source
        self.test = ValueTest(named.match)
    }

    func values(_ request: RequestView) -> [String] {
        switch source {
        case .header:
            return request.request.headers.filter { $0.name.equalsIgnoringCase(name) }.map(\.value)
        case .cookie:
            return request.cookies.filter { $0.name == name }.map(\.value)
        }
    }

    func matches(_ request: RequestView) -> Bool { test.accepts(values(request), budget: request.regexBudget) }

    func explain(_ request: RequestView) -> [String] {
        let found = values(request)
        guard !test.accepts(found, budget: request.regexBudget) else { return [] }
        let label = source == .header ? "header" : "cookie"
        let shown = found.first.map { "\"\(request.redactor.value($0, named: name))\"" } ?? "missing"
        return ["\(label) \(name): expected \(test.match), got \(shown)"]
    }
}
