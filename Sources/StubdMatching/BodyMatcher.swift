import StubModel
import Recording
import StubdEngine
import Foundation

/// What the body must be: anything, exact bytes, JSON by meaning, form pairs as a multiset,
/// multipart parts in order with any boundary, or just the field names (shape). The request's parsed forms come from its
/// `RequestView`, so a body is parsed once however many routes look at it.
struct BodyMatcher: RequestPartMatcher {
    let pattern: BodyPattern
    /// Form pairs sorted once, so matching is one array comparison with the request's sorted pairs.
    private let sortedForm: [NameValue]
    /// Names whose values are not compared (`anyValueFor`): masked on both sides.
    private let anyValue: AnyValueMask
    /// The expected JSON with `anyValue` masked.
    private let maskedJSON: JSONValue?

    /// Partial JSON comparison (`ignoreExtraElements`, `ignoreArrayOrder`).
    private let jsonOptions: JSONMatchOptions
    /// For `.matches`.
    private let regex: CompiledRegex?
    /// For `.all`: one matcher per pattern.
    private let each: [BodyMatcher]
    /// For `.jsonPath` with a value match.
    private let valueTest: ValueTest?

    init(pattern: BodyPattern, anyValueFor: [String] = [], jsonOptions: JSONMatchOptions = JSONMatchOptions()) {
        self.pattern = pattern
        self.jsonOptions = jsonOptions
        if case .matches(let expression) = pattern { regex = CompiledRegex(expression) } else { regex = nil }
        self.anyValue = AnyValueMask(names: anyValueFor)
        if case .form(let pairs) = pattern { sortedForm = anyValue.pairs(pairs).sorted() } else { sortedForm = [] }
        if case .json(let json) = pattern { maskedJSON = anyValue.json(json) } else { maskedJSON = nil }
        if case .jsonPath(_, let match?) = pattern { valueTest = ValueTest(match) } else { valueTest = nil }
        if case .all(let patterns) = pattern {
            each = patterns.map { BodyMatcher(pattern: $0, anyValueFor: anyValueFor, jsonOptions: jsonOptions) }
        } else {
            each = []
        }
    }

    func matches(_ request: RequestView) -> Bool {
        switch pattern {
        case .any: return true
        case .bytes(let expected): return request.body == expected
        case .json(let expected):
            if !jsonOptions.isExact {
                guard let json = request.json else { return false }
                return JSONPartialMatch.matches(expected: maskedJSON ?? expected, got: anyValue.json(json), options: jsonOptions)
            }
            guard !anyValue.isEmpty else { return request.json == expected }
            return request.json.map(anyValue.json) == maskedJSON
        case .contains(let text): return String(decoding: request.body, as: UTF8.self).contains(text)
        case .matches: return regex?.matchesWhole(String(decoding: request.body, as: UTF8.self), budget: request.regexBudget) ?? false
        case .form:
            // `+` as a space, or (a fixture written when stubd read it literally) as a plus.
            if (anyValue.isEmpty ? request.form : anyValue.pairs(request.form).sorted()) == sortedForm { return true }
            guard let literal = request.literalForm else { return false }
            return (anyValue.isEmpty ? literal : anyValue.pairs(literal).sorted()) == sortedForm
        case .multipart(let expected):
            if case .parts(let parts) = request.multipart { return Self.partsMatch(expected: expected, got: parts) }
            return false
        case .fields(let names): return request.fieldNames == names
        case .all: return each.allSatisfy { $0.matches(request) }
        case .jsonPath(let path, _):
            guard let json = request.json else { return false }
            let selected = path.select(in: json, regexBudget: request.regexBudget)
            guard let valueTest else { return !selected.isEmpty }
            return valueTest.accepts(selected.map(Self.text), budget: request.regexBudget)
        }
    }

    /// A selected value as a value match reads it: a string as itself, anything else as compact JSON.
    static func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return JSONWriter.write(value, pretty: false)
    }

    /// Near misses only: a body past `RequestView.explainLimit` costs one and is not parsed or
    /// compared again (the hit path has already said it does not match).
    func distance(_ request: RequestView) -> Int {
        if case .any = pattern { return 0 }
        if request.bodyTooLargeToExplain { return 1 }
        return matches(request) ? 0 : max(1, explain(request).count)
    }

    func explain(_ request: RequestView) -> [String] {
        let differences = explainBody(request)
        guard !differences.isEmpty else { return [] }
        switch request.bodyDecoding {
        case .none: return differences
        case .decoded(_, let codings): return differences + ["body: compared as decoded from Content-Encoding \(codings)"]
        case .undecodable(let codings):
            return differences + ["body: sent with Content-Encoding \(codings), which stubd could not decode (gzip and deflate are read, up to "
                                  + "\(RequestView.decodedBodyLimit >> 20) MiB decoded); compared as sent"]
        }
    }

    private func explainBody(_ request: RequestView) -> [String] {
        let body = request.body
        if case .any = pattern { return [] }
        if request.bodyTooLargeToExplain {
            return ["body: not compared in this report (\(body.count) bytes, over the \(RequestView.explainLimit / 1024) KiB a report compares)"]
        }
        switch pattern {
        case .any:
            return []
        case .all:
            return each.flatMap { $0.explainBody(request) }
        case .jsonPath(let path, let match):
            guard !matches(request) else { return [] }
            guard let json = request.json else { return ["body: expected JSON for \(path), got \(body.count) bytes that are not JSON"] }
            // Selected from the redacted document: a path into a secret shows `[redacted]`.
            let selected = path.select(in: request.redactor.json(json), regexBudget: request.regexBudget)
            if let match {
                return ["body \(path): expected \(match), got " + (selected.isEmpty ? "nothing" : selected.map(Self.text).joined(separator: ", "))]
            }
            return ["body \(path): expected to select something, got nothing"]
        case .contains(let text):
            return matches(request) ? [] : ["body: expected to contain \"\(text)\""]
        case .matches(let expression):
            return matches(request) ? [] : ["body: expected to match /\(expression)/"]
        case .bytes(let expected):
            return body == expected ? [] : ["body: expected \(expected.count) exact bytes, got \(body.count) different bytes"]
        case .json(let expected):
            guard let json = request.json else {
                return ["body: expected JSON \(request.redactor.json(expected)), got a body that is not JSON"]
            }
            if !jsonOptions.isExact {
                return matches(request) ? [] : ["body: expected JSON containing \(request.redactor.json(expected))"
                                                + (jsonOptions.ignoreArrayOrder ? " (arrays in any order)" : "")]
            }
            return JSONDifference.between(expected: request.redactor.json(maskedJSON ?? expected), got: request.redactor.json(anyValue.json(json)))
                .map { "body field \($0)" }
        case .form:
            // Another kind of body read as form pairs would echo its text as names: say its kind.
            if let kind = request.bodyKindOtherThanForm {
                return ["body: expected form fields \(sortedForm.map(\.name).joined(separator: ", ")), got \(kind) (\(body.count) bytes)"]
            }
            return PairDifferences.between(label: "form field", expected: sortedForm, got: anyValue.pairs(request.form).sorted(), redactor: request.redactor)
        case .fields(let names):
            guard let got = request.fieldNames else { return ["body: expected fields \(names.joined(separator: ", ")), got a body without fields"] }
            let missing = names.filter { !got.contains($0) }, extra = got.filter { !names.contains($0) }
            return missing.map { "body field \($0): expected (any value), missing" } + extra.map { "body field \($0): unexpected" }
        case .multipart(let expected):
            switch request.multipart {
            case .noBoundary(let contentType):
                return ["header content-type: expected multipart/form-data with a boundary, got \(contentType.map { "\"\($0)\"" } ?? "none")"]
            case .malformed(let boundary):
                return ["body: expected multipart/form-data with boundary \(boundary), got a malformed body"]
            case .parts(let parts):
                return Self.partDifferences(expected: expected, got: parts)
            }
        }
    }

    /// Parts in order, each with its name, file name and bytes; a part the fixture declares no
    /// `contentType` for takes any (every browser `FormData` file, curl `-F`, OkHttp and
    /// Alamofire with a MIME type send one), a declared one must be the same media type.
    static func partsMatch(expected: [MultipartPart], got: [MultipartPart]) -> Bool {
        expected.count == got.count && zip(expected, got).allSatisfy { partMatches(expected: $0, got: $1) }
    }

    private static func partMatches(expected want: MultipartPart, got have: MultipartPart) -> Bool {
        want.name == have.name && want.fileName == have.fileName && want.body == have.body && typeMatches(want.contentType, have.contentType)
    }

    private static func typeMatches(_ declared: String?, _ sent: String?) -> Bool {
        guard let declared else { return true }
        guard let sent else { return false }
        func normal(_ type: String) -> String { type.trimmingCharacters(in: .whitespaces).lowercased() }
        return normal(declared) == normal(sent)
    }

    static func partDifferences(expected: [MultipartPart], got: [MultipartPart]) -> [String] {
        guard expected.count == got.count else {
            return ["body: expected \(expected.count) parts (\(expected.map(\.name).joined(separator: ", "))), got \(got.count) (\(got.map(\.name).joined(separator: ", ")))"]
        }
        var out: [String] = []
        for (index, pair) in zip(expected, got).enumerated() where !partMatches(expected: pair.0, got: pair.1) {
            let (want, have) = pair
            let label = "body part \(index + 1) (\(want.name))"
            if want.name != have.name { out.append("\(label): expected name \"\(want.name)\", got \"\(have.name)\"") }
            if want.fileName != have.fileName { out.append("\(label): expected filename \(want.fileName ?? "none"), got \(have.fileName ?? "none")") }
            if !typeMatches(want.contentType, have.contentType) {
                out.append("\(label): expected Content-Type \(want.contentType ?? "any"), got \(have.contentType ?? "none")")
            }
            if want.body != have.body { out.append("\(label): expected \(want.body.count) bytes, got \(have.body.count) different bytes") }
        }
        return out
    }
}

/// Field names whose values a body may have any of: their values are replaced by one fixed
/// value on both sides before comparing, at any depth of a JSON document.
struct AnyValueMask {
    let names: Set<String>
    var isEmpty: Bool { names.isEmpty }

    init(names: [String]) { self.names = Set(names) }

    func json(_ value: JSONValue) -> JSONValue {
        guard !names.isEmpty else { return value }
        switch value {
        case .object(let members): return .object(members.map { ($0.key, names.contains($0.key) ? .null : json($0.value)) })
        case .array(let items): return .array(items.map(json))
        default: return value
        }
    }

    func pairs(_ pairs: [NameValue]) -> [NameValue] {
        guard !names.isEmpty else { return pairs }
        return pairs.map { names.contains($0.name) ? NameValue($0.name, "") : $0 }
    }
}
