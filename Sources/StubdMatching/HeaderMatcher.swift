import StubModel
import Recording
import StubdEngine

/// One header the route requires: present (name case-insensitive) with exactly this value.
/// Headers a route does not list are never checked.
struct HeaderMatcher: RequestPartMatcher {
    /// Lower-cased.
    let name: String
    let value: String

    func matches(_ request: RequestView) -> Bool {
        request.request.headers.contains { $0.value == value && $0.name.equalsIgnoringCase(name) }
    }

    func explain(_ request: RequestView) -> [String] {
        let values = request.request.headers.filter { $0.name.equalsIgnoringCase(name) }.map(\.value)
        let shown = { (text: String) in request.redactor.value(text, named: name) }
        if values.isEmpty { return ["header \(name): expected \"\(shown(value))\", missing"] }
        return values.contains(value) ? [] : ["header \(name): expected \"\(shown(value))\", got \"\(shown(values[0]))\""]
    }
}
