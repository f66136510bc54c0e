/// One field of the fixture format, declared once: the reader accepts exactly these keys, the
/// writer writes only these, a test reads, writes and re-reads every row's example, and another
/// compares the table with docs/FIXTURES.md — so the reader, the writer and the manual cannot
/// drift (the pattern `AdminContract` keeps for the admin API).
public struct FixtureField: Sendable, Hashable {
    /// The object a field belongs to.
    public enum Object: String, Sendable, CaseIterable {
        /// A route (`{"request": …, "response": …}`).
        case route
        /// A route's `request`.
        case request
        /// A request's `body`.
        case requestBody = "request.body"
        /// A route's `response` (or an element of `responses`).
        case response
        /// The file's top level, beside `routes`.
        case file
    }

    /// How a field takes part in a route's answer.
    public enum Role: Sendable, Hashable {
        /// An ordinary field.
        case plain
        /// One of the keys that give a route its answer; exactly one per route.
        case answer
        /// An answer that may also be an element of `responses` (`{"fault": …}`).
        case answerInSequence
    }

    /// Where the field lives.
    public let object: Object
    /// The JSON key.
    public let key: String
    /// Its part in the answer, for route keys.
    public let role: Role
    /// A whole route (or file, for `.file` fields) that uses the field and reads without
    /// error — the table test's input. Nil for the file-level fields `stubd` writes itself.
    public let example: String?
    /// Whether `FixtureWriter` writes the field back under its own key; false for `bodyFile`,
    /// whose bytes the writer inlines as `json`, `text` or `base64`.
    public let written: Bool

    /// The field's name as docs/FIXTURES.md writes it (`request.body`, `delay`).
    public var documentedName: String { object == .route || object == .file ? key : "\(object.rawValue).\(key)" }

    init(_ object: Object, _ key: String, _ role: Role = .plain, example: String?, written: Bool = true) {
        self.object = object
        self.key = key
        self.role = role
        self.example = example
        self.written = written
    }
}

extension FixtureField {
    /// The keys an object accepts, in the table's order.
    public static func keys(of object: Object) -> [String] {
        all.filter { $0.object == object }.map(\.key)
    }

    /// The route keys that give the answer (`response`, `stream`, `fault`, `responses`, …).
    public static var answerKeys: [String] {
        all.filter { $0.object == .route && $0.role != .plain }.map(\.key)
    }

    /// The answers that may stand as an element of `responses` beside a plain response object.
    public static var sequenceElementKeys: [String] {
        all.filter { $0.role == .answerInSequence }.map(\.key)
    }

    private static let get = #""request": {"method": "GET", "path": "/p"}"#
    private static func route(_ members: String, request: String? = nil, answer: String = #""response": {"status": 204}"#) -> String {
        "{\(request.map { #""request": {"method": "POST", "path": "/p", \#($0)}"# } ?? get), \(answer)\(members.isEmpty ? "" : ", " + members)}"
    }
    private static func request(_ members: String) -> String { route("", request: members) }
    private static func body(_ members: String) -> String { request(#""body": {\#(members)}"#) }
    private static func response(_ members: String) -> String { route("", answer: #""response": {\#(members)}"#) }

    /// Every field of the format.
    public static let all: [FixtureField] = [
        FixtureField(.route, "name", example: route(#""name": "profile""#)),
        FixtureField(.route, "request", example: route("")),
        FixtureField(.route, "response", .answer, example: route("")),
        FixtureField(.route, "networkError", .answerInSequence, example: route("", answer: #""networkError": {"domain": "NSURLErrorDomain", "code": -1001}"#)),
        FixtureField(.route, "fault", .answerInSequence, example: route("", answer: #""fault": "reset""#)),
        FixtureField(.route, "stream", .answerInSequence, example: route("", answer: #""stream": {"format": "sse", "events": [{"data": "hi"}]}"#)),
        FixtureField(.route, "llm", .answerInSequence, example: route("", answer: #""llm": {"provider": "openai-chat", "text": "Hello"}"#)),
        FixtureField(.route, "websocket", .answer, example: route("", answer: #""websocket": {"onOpen": [{"send": {"text": "hi"}}]}"#)),
        FixtureField(.route, "responses", .answer, example: route("", answer: #""responses": [{"status": 503}, {"fault": "reset"}, {"status": 200}]"#)),
        FixtureField(.route, "collection", .answer, example: route("", answer: #""collection": {"name": "todos", "path": "/todos", "action": "list"}"#)),
        FixtureField(.route, "save", example: route(#""save": {"token": "{{request.query.t}}"}"#)),
        FixtureField(.route, "webhooks", example: route(#""webhooks": [{"method": "POST", "url": "http://127.0.0.1:9/hook"}]"#)),
        FixtureField(.route, "afterLast", example: route(#""afterLast": "cycle""#, answer: #""responses": [{"status": 200}, {"status": 201}]"#)),
        FixtureField(.route, "delay", example: route(#""delay": 0.25"#)),
        FixtureField(.route, "priority", example: route(#""priority": 2"#)),
        FixtureField(.route, "scenario", example: route(#""scenario": "checkout""#)),
        FixtureField(.route, "requiredState", example: route(#""scenario": "checkout", "requiredState": "paid""#)),
        FixtureField(.route, "newState", example: route(#""scenario": "checkout", "newState": "paid""#)),
        FixtureField(.route, "dribble", example: route(#""dribble": {"chunks": 4, "seconds": 1}"#)),
        FixtureField(.route, "faultSteps", example: route(#""faultSteps": "inBody""#, answer: #""responses": [{"status": 503}, {"fault": "reset"}, {"status": 200}]"#)),

        FixtureField(.request, "method", example: route("")),
        FixtureField(.request, "path", example: route("")),
        FixtureField(.request, "pathTemplate", example: #"{"request": {"method": "GET", "pathTemplate": "/users/{login}"}, "response": {}}"#),
        FixtureField(.request, "pathPattern", example: #"{"request": {"method": "GET", "pathPattern": "/users/[0-9]+"}, "response": {}}"#),
        FixtureField(.request, "urlPattern", example: #"{"request": {"method": "GET", "urlPattern": "/search\\?q=[a-z]+"}, "response": {}}"#),
        FixtureField(.request, "query", example: request(#""query": {"page": "2", "q": {"present": true}, "sort": {"contains": "date"}}"#)),
        FixtureField(.request, "anyOtherQuery", example: request(#""query": {"page": "2"}, "anyOtherQuery": true"#)),
        FixtureField(.request, "headers", example: request(#""headers": {"Accept": "application/json", "X-Trace": {"absent": true}}"#)),
        FixtureField(.request, "cookies", example: request(#""cookies": {"session": "abc", "theme": {"matches": "dark|light"}}"#)),
        FixtureField(.request, "body", example: body(#""json": {"title": "Found a bug"}"#)),
        FixtureField(.request, "host", example: request(#""host": "api.example.com""#)),
        FixtureField(.request, "graphql", example: request(#""graphql": {"operationName": "Profile", "variables": {"id": 7}}"#)),
        FixtureField(.request, "pathExact", example: request(#""pathExact": true"#)),

        FixtureField(.requestBody, "json", example: body(#""json": {"a": 1}"#)),
        FixtureField(.requestBody, "form", example: body(#""form": {"a": "1", "b": ["2", "3"]}"#)),
        FixtureField(.requestBody, "text", example: body(#""text": "hello""#)),
        FixtureField(.requestBody, "base64", example: body(#""base64": "AP8=""#)),
        FixtureField(.requestBody, "multipart", example: body(#""multipart": [{"name": "f", "fileName": "a.txt", "contentType": "text/plain", "text": "hi"}]"#)),
        FixtureField(.requestBody, "fields", example: body(#""fields": ["a", "b"]"#)),
        FixtureField(.requestBody, "contains", example: body(#""contains": "needle""#)),
        FixtureField(.requestBody, "matches", example: body(#""matches": "^a.*z$""#)),
        FixtureField(.requestBody, "all", example: body(#""all": [{"contains": "a"}, {"json": {"a": 1}}], "ignoreArrayOrder": true"#)),
        FixtureField(.requestBody, "jsonPath", example: body(#""jsonPath": {"expression": "$.user.name", "equalTo": "Ada"}"#)),
        FixtureField(.requestBody, "anyValueFor", example: body(#""json": {"user": "ada", "password": "x"}, "anyValueFor": ["password"]"#)),
        FixtureField(.requestBody, "ignoreExtraElements", example: body(#""json": {"a": 1}, "ignoreExtraElements": true"#)),
        FixtureField(.requestBody, "ignoreArrayOrder", example: body(#""json": {"a": [1, 2]}, "ignoreArrayOrder": true"#)),

        FixtureField(.response, "status", example: response(#""status": 201"#)),
        FixtureField(.response, "headers", example: response(#""headers": {"Content-Type": "application/json", "ETag": "\"1\""}, "json": {"id": 1}"#)),
        FixtureField(.response, "json", example: response(#""json": {"id": 1}"#)),
        FixtureField(.response, "text", example: response(#""text": "plain words""#)),
        FixtureField(.response, "base64", example: response(#""base64": "AP8=""#)),
        FixtureField(.response, "bodyFile", example: response(#""bodyFile": "issue.json""#), written: false),
        FixtureField(.response, "template", example: response(#""text": "{{request.path}}", "template": true"#)),
        FixtureField(.response, "defaultHeaders", example: response(#""text": "raw", "defaultHeaders": false"#)),
        FixtureField(.response, "trailers", example: response(#""json": {"id": 1}, "trailers": {"X-Checksum": "sha-256=1"}"#)),

        FixtureField(.file, "routes", example: nil),
        FixtureField(.file, "recordedFrom", example: nil),
        FixtureField(.file, "templates", example: nil),
        FixtureField(.file, "collections", example: nil),
    ]
}
