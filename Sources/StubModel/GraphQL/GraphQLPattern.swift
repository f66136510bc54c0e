/// What a route requires of a GraphQL request (`"graphql"` in a fixture's request): the
/// operation by name, or a persisted query by its hash, and variables — each named variable equal
/// by JSON meaning, objects compared partially (the request may send more), other variables
/// ignored. Every GraphQL operation of an app is `POST /graphql`: this is what tells them apart.
public struct GraphQLPattern: Sendable, Hashable {
    /// The operation's name (from `operationName`, or read from the `query` document).
    public var operationName: String?
    /// `extensions.persistedQuery.sha256Hash` (Apollo's automatic persisted queries, GET or POST).
    public var persistedQueryHash: String?
    /// Variables that must be sent with these values.
    public var variables: [(name: String, value: JSONValue)]

    /// A pattern.
    public init(operationName: String? = nil, persistedQueryHash: String? = nil, variables: [(name: String, value: JSONValue)] = []) {
        self.operationName = operationName
        self.persistedQueryHash = persistedQueryHash
        self.variables = variables
    }

    /// Equal when they match the same operations (by their canonical text).
    public static func == (lhs: GraphQLPattern, rhs: GraphQLPattern) -> Bool {
        lhs.operationName == rhs.operationName && lhs.persistedQueryHash == rhs.persistedQueryHash
            && lhs.variables.map(\.name) == rhs.variables.map(\.name) && lhs.variables.map(\.value) == rhs.variables.map(\.value)
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(operationName)
        hasher.combine(persistedQueryHash)
        for variable in variables {
            hasher.combine(variable.name)
            hasher.combine(variable.value)
        }
    }

    /// How it reads in listings: `ProfileQuery(id: 7)`.
    public var description: String {
        let name = operationName ?? persistedQueryHash.map { "persisted " + String($0.prefix(12)) } ?? "any operation"
        guard !variables.isEmpty else { return name }
        return name + "(" + variables.map { "\($0.name): \(JSONWriter.write($0.value, pretty: false))" }.joined(separator: ", ") + ")"
    }
}

/// A GraphQL request as sent over HTTP (the GraphQL-over-HTTP convention): a POST with a JSON body
/// `{"query", "operationName", "variables", "extensions"}`, or a GET with those as query
/// parameters (`variables` and `extensions` JSON-encoded).
public struct GraphQLRequest: Sendable, Equatable {
    /// The operation's name: `operationName`, else the name of the document's only operation.
    public let operationName: String?
    /// The operation's kind, when the document was read.
    public let kind: GraphQLDocument.OperationKind?
    /// `extensions.persistedQuery.sha256Hash`.
    public let persistedQueryHash: String?
    /// The variables (an empty object when none were sent).
    public let variables: JSONValue
    /// Why the document did not read, when it did not.
    public let documentProblem: String?

    /// Reads a GraphQL request from any request: a GET's query pairs; a POST's JSON body; or a
    /// POST of `Content-Type: application/graphql`, whose body is the document itself (its
    /// `operationName` and `variables` then in the query, as express-graphql and Apollo Server read them).
    /// `json` is the body already parsed (nil when it is not JSON).
    public static func read(method: String, query: [NameValue], contentType: String?, body: [UInt8], json: JSONValue?) -> GraphQLRequest? {
        guard method != "GET" else { return read(method: method, query: query, body: nil) }
        if let contentType, MediaType(contentType)?.essence == "application/graphql" {
            var members: [(key: String, value: JSONValue)] = [("query", .string(String(decoding: body, as: UTF8.self)))]
            for pair in query where pair.name == "operationName" { members.append(("operationName", .string(pair.value))) }
            for pair in query where pair.name == "variables" { members.append(("variables", (try? JSONParser.parse(Array(pair.value.utf8))) ?? .null)) }
            return read(method: method, query: [], body: .object(members))
        }
        return read(method: method, query: query, body: json)
    }

    /// Reads a GraphQL request from a POST's JSON body or a GET's query pairs; nil when it is not one.
    public static func read(method: String, query: [NameValue], body: JSONValue?) -> GraphQLRequest? {
        var fields: [String: JSONValue] = [:]
        if method == "GET" {
            for pair in query where ["query", "operationName", "variables", "extensions"].contains(pair.name) {
                if pair.name == "variables" || pair.name == "extensions" {
                    fields[pair.name] = (try? JSONParser.parse(Array(pair.value.utf8))) ?? .null
                } else {
                    fields[pair.name] = .string(pair.value)
                }
            }
        } else if case .object(let members)? = body {
            for member in members { fields[member.key] = member.value }
        }
        var hash: String?
        if case .string(let found)? = fields["extensions"]?["persistedQuery"]?["sha256Hash"] { hash = found }
        guard fields["query"] != nil || hash != nil else { return nil }
        var name: String?
        if case .string(let given)? = fields["operationName"], !given.isEmpty { name = given }
        var kind: GraphQLDocument.OperationKind?
        var problem: String?
        if case .string(let text)? = fields["query"] {
            switch GraphQLDocument.parse(text) {
            case .success(let document):
                let operation = document.operation(named: name)
                if name == nil { name = operation?.name }
                kind = operation?.kind
            case .failure(let failure):
                problem = failure.description
            }
        }
        var variables: JSONValue = .object([])
        if case .object? = fields["variables"] { variables = fields["variables"]! }
        return GraphQLRequest(operationName: name, kind: kind, persistedQueryHash: hash, variables: variables, documentProblem: problem)
    }
}
