import Foundation
import FixtureFiles
import Importers
import OpenAPIKit
import StubModel

/// Converts an OpenAPI 3.0 or 3.1 spec (YAML or JSON, parsed by Yams and OpenAPIKit, `$ref`s
/// resolved) into stubs: one route per operation and response example, on the operation's path
/// (a template where it has `{parameters}`), under the first server URL's path.
///
/// The first success example (2xx, else `default`, else the first response) answers a plain
/// request; every other response and example answers when the request names it with
/// `X-Stubd-Example: STATUS` or `STATUS/EXAMPLE-NAME` — so a test can ask for the 404 a spec
/// documents. A response without an example is answered with its status and an empty body
/// (reported).
public enum OpenAPIImporter {
    /// The header that picks a response other than the first success example.
    public static let exampleHeader = "x-stubd-example"

    /// Reads and converts `file`.
    public static func importSpec(_ file: String) -> ImportedFile {
        var result = ImportedFile(file: file)
        guard let data = FileManager.default.contents(atPath: file) else {
            result.errors = [FixtureError(file: file, field: "", problem: "cannot be read; check the path and its permissions")]
            return result
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            var warnings: [String] = []
            let document = try OpenAPIVersions.decode(text, file: file, warnings: &warnings)
            result.unsupported += warnings
            // References are followed one at a time, only where an answer needs them — never the
            // whole document: real specs (Stripe's) have recursive schemas, which a full
            // dereference refuses, and the examples are all that matters here.
            result.fixtures = try fixtures(from: document, file: file, notes: &result.unsupported)
        } catch let error as FixtureError {
            result.errors = [error]
        } catch {
            result.errors = [FixtureError(file: file, field: "", problem: OpenAPIKit.OpenAPI.Error(from: error).localizedDescription)]
        }
        return result
    }

    static func fixtures(from document: OpenAPIKit.OpenAPI.Document, file: String, notes: inout [String]) throws -> [Fixture] {
        let components = document.components
        var base = ""
        if let server = document.servers.first {
            // `{scheme}://api.example.com/{version}`: each variable takes its default, so the base path survives.
            var text = server.urlTemplate.absoluteString
            for (name, variable) in server.variables { text = text.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            if let url = URLComponents(string: text) {
                base = url.percentEncodedPath
                while base.hasSuffix("/") { base.removeLast() }
            }
        }
        var fixtures: [Fixture] = []
        for (path, maybeItem) in document.paths {
            guard let item = components[maybeItem] else {
                notes.append("\(file): paths.\(path.rawValue): its $ref could not be resolved; left out")
                continue
            }
            var raw = base + (path.rawValue.hasPrefix("/") ? path.rawValue : "/" + path.rawValue)
            // A query variant of a path the spec has too (`/responses?beta=true`): the query is a matcher.
            var variantQuery: [NameValue] = []
            if let marker = raw.range(of: "/" + OpenAPIVersions.queryMarker) {
                variantQuery = FormCoding.decodePairs(String(raw[marker.upperBound...]))
                raw = String(raw[..<marker.lowerBound])
            }
            let pathPattern: PathPattern
            if raw.contains("{") {
                switch PathTemplate.parse(raw) {
                case .success(let template): pathPattern = .template(template)
                case .failure(let problem): throw FixtureError(file: file, field: "paths.\(path.rawValue)", problem: "\"\(raw)\" \(problem.message)")
                }
            } else {
                pathPattern = .literal(PathSegments(raw: raw))
            }
            for endpoint in item.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let operation = endpoint.operation
                let label = operation.operationId ?? "\(method) \(raw)"
                let answers = examples(of: operation, components: components)
                guard !answers.isEmpty else {
                    notes.append("\(file): paths.\(path.rawValue).\(endpoint.method.rawValue.lowercased()).responses: none; the route is left out")
                    continue
                }
                let primary = answers.firstIndex { (200..<300).contains($0.status) } ?? 0
                for (index, answer) in answers.enumerated() {
                    var request = RequestPattern(method: method, path: pathPattern)
                    request.query.othersAllowed = true
                    request.query.pairs = variantQuery
                    if index != primary {
                        request.add(.headerMatch(NamedMatch(exampleHeader, .equalTo(answer.selector, caseInsensitive: true))))
                    }
                    if answer.generated {
                        notes.append("\(file): paths.\(path.rawValue).\(endpoint.method.rawValue.lowercased()).responses.\(answer.statusText): no example; body generated from the schema")
                    }
                    if answer.body == nil {
                        notes.append("\(file): paths.\(path.rawValue).\(endpoint.method.rawValue.lowercased()).responses.\(answer.statusText): no example; answered with status \(answer.status) and an empty body")
                    }
                    var headers: [NameValue] = []
                    if let type = answer.contentType, answer.body != nil { headers.append(NameValue("Content-Type", type)) }
                    let response = StubHTTPResponse(status: answer.status, headers: headers, body: answer.body ?? [])
                    fixtures.append(Fixture(name: "\(label) \(answer.selector)", source: "\(file) paths.\(path.rawValue).\(endpoint.method.rawValue.lowercased())",
                                            request: request, outcome: .response(response)))
                }
            }
        }
        return fixtures
    }

    struct Answer {
        var status: Int
        var statusText: String
        var selector: String
        var contentType: String?
        var body: [UInt8]?
        /// Made from the schema (no example in the spec).
        var generated = false
    }

    /// Every (status, content type, example) of an operation, in the spec's order.
    static func examples(of operation: OpenAPIKit.OpenAPI.Operation, components: OpenAPIKit.OpenAPI.Components) -> [Answer] {
        var answers: [Answer] = []
        let explicitSuccess = operation.responses.keys.contains { if case .status(let code) = $0.value { (200..<300).contains(code) } else { false } }
        for (code, maybeResponse) in operation.responses {
            guard let response = components[maybeResponse] else { continue }
            let status: Int
            switch code.value {
            case .status(let number): status = number
            case .range(let range): status = (Int(String(range.rawValue.prefix(1))) ?? 2) * 100
            case .default: status = explicitSuccess ? 500 : 200
            }
            let statusText = code.rawValue
            guard let (type, maybeContent) = response.content.first, let content = components[maybeContent] else {
                answers.append(Answer(status: status, statusText: statusText, selector: "\(status)", contentType: nil, body: nil))
                continue
            }
            let mediaType = type.rawValue
            if let named = content.examples, !named.isEmpty {
                let first = answers.count
                for (name, maybeExample) in named {
                    let value = components[maybeExample]?.value?.value
                    answers.append(Answer(status: status, statusText: statusText, selector: "\(status)/\(name)", contentType: mediaType,
                                          body: value.flatMap { bytes($0, mediaType: mediaType) }))
                }
                // The bare status picks the first named example too.
                var alias = answers[first]
                alias.selector = "\(status)"
                answers.append(alias)
                continue
            }
            var schema = content.schema
            if let given = schema, case .reference(let reference, _) = given.value, let found = components[reference] { schema = found }
            let value = content.example ?? schema?.examples.first ?? schema?.defaultValue
            if value == nil, let schema, mediaType.contains("json") {
                // No example: a body made from the schema, marked as generated in the report.
                let sample = SchemaSample.value(schema, components: components)
                answers.append(Answer(status: status, statusText: statusText, selector: "\(status)", contentType: mediaType,
                                      body: Array(JSONWriter.write(sample, pretty: false).utf8), generated: true))
                continue
            }
            answers.append(Answer(status: status, statusText: statusText, selector: "\(status)", contentType: mediaType,
                                  body: value.flatMap { bytes($0, mediaType: mediaType) }))
        }
        return answers
    }

    /// An example value as the body bytes: JSON media types as compact JSON, a string as its
    /// text, anything else as JSON.
    static func bytes(_ value: AnyCodable, mediaType: String) -> [UInt8]? {
        if !mediaType.contains("json"), case let text as String = value.value { return Array(text.utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]  // deterministic: a decoded map has no order of its own
        guard let data = try? encoder.encode(value), let parsed = try? JSONParser.parse([UInt8](data)) else { return nil }
        return Array(JSONWriter.write(parsed, pretty: false).utf8)
    }
}
