import Foundation

/// A response whose body and headers are templates, compiled once when the route table is
/// built: a JSON body keeps its structure and only string values with `{{` are rendered (each
/// result stays one valid JSON string, whatever it contains), a text body is rendered whole,
/// header values are rendered with CR and LF removed. Routes without templates never get here.
public struct ResponseTemplate: Sendable {
    /// A JSON value whose strings may be templates.
    public indirect enum JSONPart: Sendable {
        case constant(JSONValue)
        case string(TemplateText)
        case array([JSONPart])
        case object([(key: String, value: JSONPart)])
        /// An object with a templated key (`{"{{now format='yyyy-MM-dd'}}": 1}`).
        case templatedObject([(key: TemplateText, value: JSONPart)])
        /// A string that is one GraphQL variable and nothing else (`"{{graphql.variables.id}}"`):
        /// the variable's JSON value as sent — a number stays a number, an object an object.
        case graphQLVariable([String])
    }

    /// How the body is made.
    public enum Body: Sendable {
        case bytes([UInt8])
        case text(TemplateText)
        case json(JSONPart)
    }

    /// Where a template does not parse: the response field (`json.user.name`, `headers.X-Id`,
    /// `text`) and the problem.
    public struct Problem: Error, Sendable {
        /// Field under the response.
        public let field: String
        /// The parse problem.
        public let problem: TemplateProblem
    }

    /// The status.
    public let status: Int
    /// Header names and their (possibly templated) values.
    public let headers: [(name: String, value: TemplateText)]
    /// The body.
    public let body: Body
    /// Bytes of the template as written (header values and body): what a rendering's output
    /// bound is measured against.
    public let size: Int
    /// Bare names rendered empty in WireMock's dialect, for the importer's warning.
    public private(set) var emptyNames: [String] = []
    /// The response's trailers, sent as written (not templated).
    public var trailers: [NameValue] = []

    /// Compiles a response's body and header values.
    public static func compile(_ response: StubHTTPResponse) -> Result<ResponseTemplate, Problem> {
        let dialect = response.templateDialect
        var headers: [(name: String, value: TemplateText)] = []
        for header in response.headers {
            switch TemplateText.parse(header.value, dialect: dialect) {
            case .success(let text): headers.append((header.name, text))
            case .failure(let problem): return .failure(Problem(field: "headers.\(header.name)", problem: problem))
            }
        }
        let body: Body
        var known: Set<String> = []
        if let json = try? JSONParser.parse(response.body), json.isDocument {
            switch compile(json, at: "json", dialect: dialect, known: &known) {
            case .success(let part): body = .json(part)
            case .failure(let problem): return .failure(problem)
            }
        } else if let text = String(validating: response.body, as: UTF8.self) {
            switch TemplateText.parse(text, dialect: dialect) {
            case .success(let template): body = .text(template)
            case .failure(let problem): return .failure(Problem(field: "text", problem: problem))
            }
        } else {
            body = .bytes(response.body)
        }
        let size = response.body.count + response.headers.reduce(0) { $0 + $1.value.utf8.count }
        var template = ResponseTemplate(status: response.status, headers: headers, body: body, size: size)
        template.trailers = response.trailers
        var empty = headers.flatMap(\.value.emptyNames)
        switch body {
        case .text(let text): empty += text.emptyNames
        case .json(let part): empty += part.emptyNames
        case .bytes: break
        }
        template.emptyNames = empty.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        return .success(template)
    }

    /// `known`: names `#assign`ed in the strings before this one, in the order they render (a
    /// member's key before its value), so a later value may use them as WireMock allows.
    private static func compile(_ value: JSONValue, at field: String, dialect: TemplateDialect, known: inout Set<String>) -> Result<JSONPart, Problem> {
        switch value {
        case .string(let text) where TemplateText.mayBeTemplate(text):
            switch TemplateText.parse(text, dialect: dialect, known: &known) {
            case .success(let template):
                if template.parts.count == 1, case .value(.graphQLVariable(let path)) = template.parts[0] { return .success(.graphQLVariable(path)) }
                return .success(template.isConstant ? .constant(.string(text)) : .string(template))
            case .failure(let problem): return .failure(Problem(field: field, problem: problem))
            }
        case .array(let items):
            var parts: [JSONPart] = []
            for (index, item) in items.enumerated() {
                switch compile(item, at: "\(field)[\(index)]", dialect: dialect, known: &known) {
                case .success(let part): parts.append(part)
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.array(parts))
        case .object(let members):
            var parts: [(key: String, value: JSONPart)] = []
            var keys: [TemplateText] = []
            for member in members {
                // The key first: it renders before its value.
                if TemplateText.mayBeTemplate(member.key) {
                    switch TemplateText.parse(member.key, dialect: dialect, known: &known) {
                    case .success(let key): keys.append(key)
                    case .failure(let problem): return .failure(Problem(field: "\(field) key \"\(member.key)\"", problem: problem))
                    }
                } else {
                    keys.append(TemplateText(parts: [.literal(member.key)], source: member.key))
                }
                switch compile(member.value, at: "\(field).\(member.key)", dialect: dialect, known: &known) {
                case .success(let part): parts.append((member.key, part))
                case .failure(let problem): return .failure(problem)
                }
            }
            if keys.allSatisfy(\.isConstant) { return .success(.object(parts)) }
            return .success(.templatedObject(zip(keys, parts).map { ($0, $1.value) }))
        default:
            return .success(.constant(value))
        }
    }
}

extension JSONValue {
    /// An object or array: a body that is a JSON document.
    var isDocument: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }
}

extension ResponseTemplate.JSONPart {
    /// The bare names its strings render empty (WireMock's dialect).
    var emptyNames: [String] {
        switch self {
        case .constant, .graphQLVariable: return []
        case .string(let template): return template.emptyNames
        case .array(let items): return items.flatMap(\.emptyNames)
        case .object(let members): return members.flatMap(\.value.emptyNames)
        case .templatedObject(let members): return members.flatMap { $0.key.emptyNames + $0.value.emptyNames }
        }
    }
}
