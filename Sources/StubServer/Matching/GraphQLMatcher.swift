import StubModel

/// A route's GraphQL requirement (`"graphql"`): the operation (by name, or a persisted query's
/// hash) and named variables. Its near misses speak GraphQL: `GraphQL operation: expected
/// ProfileQuery, got SettingsQuery`, `GraphQL variable id: expected 7, got 8`.
struct GraphQLMatcher: RequestPartMatcher {
    let pattern: GraphQLPattern

    init(_ pattern: GraphQLPattern) { self.pattern = pattern }

    func matches(_ request: RequestView) -> Bool {
        guard let sent = request.graphQL else { return false }
        if let name = pattern.operationName, sent.operationName != name { return false }
        if let hash = pattern.persistedQueryHash, sent.persistedQueryHash?.lowercased() != hash.lowercased() { return false }
        for variable in pattern.variables {
            guard let value = sent.variables[variable.name],
                  JSONPartialMatch.matches(expected: variable.value, got: value, options: JSONMatchOptions(ignoreExtraElements: true)) else { return false }
        }
        return true
    }

    func distance(_ request: RequestView) -> Int {
        guard !matches(request) else { return 0 }
        guard let sent = request.graphQL else { return 4 }
        // Another operation is further off than the same one with other variables.
        let operation = (pattern.operationName.map { $0 != sent.operationName } ?? false) ? 3 : 0
        return max(1, operation + explain(request).count - (operation > 0 ? 1 : 0))
    }

    func explain(_ request: RequestView) -> [String] {
        guard let sent = request.graphQL else {
            return ["no GraphQL operation in the request: expected \(pattern.description) (a JSON body with \"query\", or ?query= on a GET)"]
        }
        var out: [String] = []
        if let name = pattern.operationName, sent.operationName != name {
            let got = sent.operationName ?? (sent.documentProblem.map { "a query that does not read (\($0))" } ?? "an anonymous operation")
            out.append("GraphQL operation: expected \(name), got \(got)")
        }
        if let hash = pattern.persistedQueryHash, sent.persistedQueryHash?.lowercased() != hash.lowercased() {
            out.append("GraphQL persisted query: expected hash \(hash.prefix(16))…, got \(sent.persistedQueryHash.map { String($0.prefix(16)) + "…" } ?? "none")")
        }
        for variable in pattern.variables {
            // A secret-looking name (password, token) hides both values: the fixture's is a secret too.
            let secret = request.redactor.isSecret(variable.name)
            let expected = secret ? "(hidden)" : JSONWriter.write(variable.value, pretty: false)
            guard let value = sent.variables[variable.name] else {
                out.append("GraphQL variable \(variable.name): expected \(expected), missing")
                continue
            }
            if !JSONPartialMatch.matches(expected: variable.value, got: value, options: JSONMatchOptions(ignoreExtraElements: true)) {
                let got = secret ? "(hidden)" : JSONWriter.write(value, pretty: false)
                out.append("GraphQL variable \(variable.name): expected \(expected), got \(got)")
            }
        }
        return out
    }
}
