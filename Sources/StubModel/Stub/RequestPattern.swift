/// What a request must look like to get this stub.
///
/// Paths are compared segment by segment after decoding (`PathPattern`); query and form pairs
/// are held decoded as a multiset (sorted),
/// because Alamofire's nested-dictionary order is random per process. Header names are
/// lower-cased; only the headers listed here are checked.
public struct RequestPattern: Sendable, Hashable {
    /// The method, exactly as on the request line (`GET`).
    public var method: String
    /// The path, exact or a template.
    public var path: PathPattern
    /// Required query pairs, decoded and sorted; the request must carry exactly these.
    public var query: [NameValue]
    /// Required headers, names lower-cased, sorted; other request headers are ignored.
    public var headers: [NameValue]
    /// What the body must be.
    public var body: BodyPattern
    /// Query parameter names that must be present with any value (shape matching): the request's
    /// other parameters must then equal `query`.
    public var queryPresent: [String] = []
    /// The server this stub stands for (`api.example.com`, lower case, no port), for targets that
    /// differ only by base host. A request names a server with `X-Stubd-Host` or its `Host`
    /// header; a request that names no server any route has is matched without it.
    public var host: String?
    /// JSON member or form field names (sorted) whose values a JSON or form body may have any of,
    /// at any depth: a recorded request whose secret values were redacted (`"anyValueFor"`).
    public var anyValueFor: [String] = []
    /// Query parameters compared by a `ValueMatch` (`{"contains": …}`, `{"absent": true}`, …),
    /// set aside before `query` is compared.
    public var queryMatches: [NamedMatch] = []
    /// Whether the request may carry query parameters the pattern does not name (WireMock's
    /// rule); by default the pairs must be exactly `query`.
    public var otherQueryAllowed = false
    /// Headers compared by a `ValueMatch` (names lower-cased).
    public var headerMatches: [NamedMatch] = []
    /// Cookies (from the `Cookie` header) compared by a `ValueMatch`.
    public var cookieMatches: [NamedMatch] = []
    /// How `body` compares when it is `.json`.
    public var jsonOptions = JSONMatchOptions()
    /// The path exactly as it must be sent (`"pathExact": true`): repeated slashes and
    /// percent-escapes count, as WireMock compares `url` and `urlPath`. Nil: compared by segments.
    public var pathExact: String?
    /// The GraphQL operation and variables the request must carry (`"graphql"`), if any.
    public var graphQL: GraphQLPattern?

    /// Creates a pattern for an exact path given in wire form (`/users/John%20Doe`).
    public init(method: String, path: String, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.init(method: method, path: .literal(PathSegments(raw: path)), query: query, headers: headers, body: body)
    }

    /// Creates a pattern, normalising query and header order and header-name case.
    public init(method: String, path: PathPattern, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.method = method
        self.path = path
        self.query = query.sorted()
        self.headers = headers.map { NameValue($0.name.lowercased(), $0.value) }.sorted()
        self.body = body
    }
}

/// How a request body is compared.
public enum BodyPattern: Sendable, Hashable {
    /// Not checked (the target sends no body, or an upload whose bytes stubd does not compare).
    case any
    /// Parsed as JSON and compared by meaning (key order and `1` vs `1.0` do not matter).
    case json(JSONValue)
    /// Parsed as `application/x-www-form-urlencoded` and compared as a multiset of decoded pairs.
    case form([NameValue])
    /// Compared byte for byte.
    case bytes([UInt8])
    /// A JSON object, form or multipart body with exactly these top-level field names (sorted),
    /// any values: the shape of a body (shape matching).
    case fields([String])
    /// A multipart/form-data body with any boundary, compared part by part (name, file name,
    /// Content-Type, bytes) in order.
    case multipart([MultipartPart])
    /// The body, as UTF-8 text, contains this text.
    case contains(String)
    /// The whole body, as UTF-8 text, matches this regular expression.
    case matches(String)
    /// Every one of these matches (WireMock's several `bodyPatterns`).
    indirect case all([BodyPattern])
    /// The body is JSON and the expression selects something (WireMock's `matchesJsonPath`),
    /// or, with a value match, something whose text satisfies it (`absent`: selects nothing).
    case jsonPath(JSONPath, ValueMatch?)
}
