import StubModel
import Recording
import StubdEngine

/// A required `Content-Type`, compared as a media type rather than as text, so every client's
/// spelling of the same type matches: type and subtype ignore case (`Application/JSON`), the
/// charset's value ignores case (`UTF-8`), spaces around `;` do not matter, a route that names no
/// parameter accepts any (OkHttp's `application/json; charset=utf-8` reaches an
/// `application/json` route), and a request that names no charset matches a route whose charset
/// is `utf-8` (curl's `application/x-www-form-urlencoded` reaches Alamofire's
/// `…; charset=utf-8`). Other parameters the route names must be present with the same value.
struct MediaTypeMatcher: RequestPartMatcher {
    /// Lower-cased header name (`content-type`).
    let name: String
    /// The value as the route gives it, for reports.
    let value: String
    let expected: MediaType

    /// A matcher for `name: value`, or nil when the value is not a media type (then the header is
    /// compared as text).
    init?(name: String, value: String) {
        guard name == "content-type", let expected = MediaType(value) else { return nil }
        self.name = name
        self.value = value
        self.expected = expected
    }

    func matches(_ request: RequestView) -> Bool {
        request.request.headers.contains { $0.name.equalsIgnoringCase(name) && accepts($0.value) }
    }

    private func accepts(_ text: String) -> Bool {
        guard let got = MediaType(text), got.essence == expected.essence else { return false }
        return expected.parameters.allSatisfy { parameter in
            if let value = got.parameter(parameter.name) { return value == parameter.value }
            return parameter.name == "charset" && parameter.value == "utf-8"
        }
    }

    func explain(_ request: RequestView) -> [String] {
        let values = request.request.headers.filter { $0.name.equalsIgnoringCase(name) }.map(\.value)
        guard let first = values.first else { return ["header \(name): expected \"\(value)\", missing"] }
        if values.contains(where: accepts) { return [] }
        guard let got = MediaType(first) else { return ["header \(name): expected \"\(value)\", got \"\(first)\" (not a media type)"] }
        if got.essence != expected.essence {
            return ["header \(name): expected media type \(expected.essence), got \(got.essence)"]
        }
        return expected.parameters.compactMap { parameter -> String? in
            switch got.parameter(parameter.name) {
            case parameter.value?: return nil
            case nil where parameter.name == "charset" && parameter.value == "utf-8": return nil
            case nil: return "header \(name): expected \(parameter.name)=\(parameter.value), missing"
            case let other?: return "header \(name): expected \(parameter.name)=\(parameter.value), got \(parameter.name)=\(other)"
            }
        }
    }
}
