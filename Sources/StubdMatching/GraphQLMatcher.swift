import StubModel
import Recording
import StubdEngine

/// A route's GraphQL requirement (`"graphql"`): the operation (by name, or a persisted query's
/// hash) and named variables. Its near misses speak GraphQL: `GraphQL operation: expected
/// ProfileQuery, got SettingsQuery`, `GraphQL variable id: expected 7, got 8`.
struct GraphQLMatcher: RequestPartMatcher {
    let pattern: GraphQLPattern

    init(_ pattern: GraphQLPattern) { self.pattern = pattern }

    func matches(_ request: RequestView) -> Bool {
        guard let sent = request.graphQL, identifies(sent) else { return false }
        for variable in pattern.variables {
            guard let value = sent.variables[variable.name],
                  JSONPartialMatch.matches(expected: variable.value, got: value, options: JSONMatchOptions(ignoreExtraElements: true)) else { return false }
        }
        return true
    }

    /// Whether the request names the route's operation. A route naming both an operation and a
    /// persisted-query hash (an imported manifest's) takes a request carrying either — a hashed
    /// request without its name, a full one without its hash — and both must agree when both are
    /// sent; a route naming one needs that one.
    private func identifies(_ sent: GraphQLRequest) -> Bool {
        let nameAgrees = pattern.operationName.map { sent.operationName == $0 }
        let hashAgrees = pattern.persistedQueryHash.map { hash in sent.persistedQueryHash.map { $0.lowercased() == hash.lowercased() } }
        switch (nameAgrees, hashAgrees) {
        case (nil, nil): return true
        case (let name?, nil): return name
        case (nil, let hash?): return hash ?? false
        case (let name?, let hash?):
            if let hash { return hash && (sent.operationName == nil || name) }
            return name
        }
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
        if !identifies(sent) {
            // Each part the request sent and got wrong; a part it did not send, when nothing else it sent could stand for it.
            if let name = pattern.operationName,
               sent.operationName.map({ $0 != name }) ?? (pattern.persistedQueryHash == nil || sent.persistedQueryHash == nil) {
                let got = sent.operationName ?? (sent.documentProblem.map { "a query that does not read (\($0))" } ?? "an anonymous operation")
                out.append("GraphQL operation: expected \(name), got \(got)")
            }
            if let hash = pattern.persistedQueryHash,
               sent.persistedQueryHash.map({ $0.lowercased() != hash.lowercased() }) ?? (pattern.operationName == nil || sent.operationName == nil) {
                out.append("GraphQL persisted query: expected hash \(hash.prefix(16))…, got \(sent.persistedQueryHash.map { String($0.prefix(16)) + "…" } ?? "none")")
            }
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
