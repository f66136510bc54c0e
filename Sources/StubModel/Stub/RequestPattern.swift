/// What a request must look like to get this stub.
///
/// Method and path are the route's address — the route table indexes them — and every other
/// requirement is one entry of `parts`: the query rule, each header and cookie, the body rule,
/// the server, the exact path, the GraphQL operation. A new kind of requirement is a new
/// `RequestPart` case with its matcher and its row in `FixtureField`'s table, not a field beside
/// the others here.
///
/// Paths are compared segment by segment after decoding (`PathPattern`); query and form pairs
/// are held decoded as a multiset (sorted), because Alamofire's nested-dictionary order is random
/// per process. Header names are lower-cased; only the headers listed here are checked.
public struct RequestPattern: Sendable, Hashable {
    /// The method, exactly as on the request line (`GET`).
    public var method: String
    /// The path, exact or a template.
    public var path: PathPattern
    /// Every requirement beyond method and path, in the order a near-miss report lists them
    /// (`RequestPart.Kind`); kept in that order so equal patterns compare equal.
    public private(set) var parts: [RequestPart]

    /// Creates a pattern for an exact path given in wire form (`/users/John%20Doe`).
    public init(method: String, path: String, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.init(method: method, path: .literal(PathSegments(raw: path)), query: query, headers: headers, body: body)
    }

    /// Creates a pattern, normalising query and header order and header-name case.
    public init(method: String, path: PathPattern, query: [NameValue] = [], headers: [NameValue] = [], body: BodyPattern = .any) {
        self.init(method: method, path: path, parts: [])
        if !query.isEmpty { self.query = QueryPattern(pairs: query) }
        for header in headers { add(.header(NameValue(header.name.lowercased(), header.value))) }
        if body != .any { self.body = BodyRule(body) }
    }

    /// Creates a pattern from its parts (put in report order; a second query, body, host, exact
    /// path or GraphQL part replaces the first).
    public init(method: String, path: PathPattern, parts: [RequestPart]) {
        self.method = method
        self.path = path
        self.parts = []
        for part in parts { add(part) }
    }

    /// Adds a requirement in its place; a part of a single-valued kind replaces the one there.
    public mutating func add(_ part: RequestPart) {
        let kind = part.kind
        // The default query rule (no pairs) and body rule (anything) are no part at all, so a
        // pattern has one form and equal patterns compare equal.
        if part == .query(QueryPattern()) || part == .body(BodyRule(.any)) { return remove(kind) }
        if kind.isSingle, let index = parts.firstIndex(where: { $0.kind == kind }) {
            parts[index] = part
            return
        }
        let index = parts.firstIndex { $0.kind > kind || ($0.kind == kind && kind.isSorted && $0.sortKey > part.sortKey) } ?? parts.endIndex
        parts.insert(part, at: index)
    }

    /// Removes every part of a kind.
    public mutating func remove(_ kind: RequestPart.Kind) {
        parts.removeAll { $0.kind == kind }
    }

    /// The query rule; without a query part the request must carry no query pairs.
    public var query: QueryPattern {
        get {
            for case .query(let rule) in parts { return rule }
            return QueryPattern()
        }
        set { add(.query(newValue)) }
    }

    /// The body rule; without a body part the body is not checked.
    public var body: BodyRule {
        get {
            for case .body(let rule) in parts { return rule }
            return BodyRule(.any)
        }
        set { add(.body(newValue)) }
    }

    /// Headers that must be sent with exactly these values (names lower-cased, sorted).
    public var headers: [NameValue] {
        get { parts.compactMap { if case .header(let header) = $0 { header } else { nil } } }
        set {
            remove(.header)
            for header in newValue { add(.header(NameValue(header.name.lowercased(), header.value))) }
        }
    }

    /// The server this stub stands for (`api.example.com`, lower case, no port), for targets that
    /// differ only by base host. A request names a server with `X-Stubd-Host` or its `Host`
    /// header; a request that names no server any route has is matched without it.
    public var host: String? {
        get {
            for case .host(let host) in parts { return host }
            return nil
        }
        set { if let newValue { add(.host(newValue)) } else { remove(.host) } }
    }

    /// The path exactly as it must be sent (`"pathExact": true`): repeated slashes and
    /// percent-escapes count, as WireMock compares `url` and `urlPath`. Nil: compared by segments.
    public var pathExact: String? {
        get {
            for case .pathExact(let path) in parts { return path }
            return nil
        }
        set { if let newValue { add(.pathExact(newValue)) } else { remove(.pathExact) } }
    }

    /// The GraphQL operation and variables the request must carry (`"graphql"`), if any.
    public var graphQL: GraphQLPattern? {
        get {
            for case .graphQL(let operation) in parts { return operation }
            return nil
        }
        set { if let newValue { add(.graphQL(newValue)) } else { remove(.graphQL) } }
    }

    /// Headers compared by a `ValueMatch` (names lower-cased).
    public var headerMatches: [NamedMatch] {
        parts.compactMap { if case .headerMatch(let match) = $0 { match } else { nil } }
    }

    /// Cookies (from the `Cookie` header) compared by a `ValueMatch`.
    public var cookieMatches: [NamedMatch] {
        parts.compactMap { if case .cookie(let match) = $0 { match } else { nil } }
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
