import FixtureFiles
import Foundation
import StubModel

/// `stubd import graphql`: an app's GraphQL operations — `.graphql`/`.gql` documents (files or
/// folders), or an Apollo persisted-query manifest (`persisted-query-manifest.json`) — become one
/// route per named operation on the endpoint (`POST /graphql`; a query gets a `GET` route too, as
/// automatic persisted queries and `useGETForQueries` send it), matched by operation name, each
/// answering `{"data": …}` shaped by the operation's selection set (objects for fields that select
/// more, `null` for leaves: there is no schema to say their types; fill them in). Fragments are
/// followed across every file of the import (Apollo apps keep them in files of their own); one
/// no file defines is reported; anonymous operations cannot be told apart and are reported.
public enum GraphQLImporter {
    /// One imported file per source document.
    public static func importPaths(_ paths: [String], endpoint: String) -> [ImportedFile] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                var missing = ImportedFile(file: path)
                missing.errors = [FixtureError(file: path, field: "", problem: "no such file or folder; give .graphql files, a folder of them, or an Apollo persisted-query manifest")]
                return [missing]
            }
            if isDirectory.boolValue {
                let found = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".gql") }.sorted().map { path + "/" + $0 }
                files += found
            } else {
                files.append(path)
            }
        }
        // Every document's fragments, so an operation may spread one defined in another file.
        var fragments = GraphQLFragments()
        for file in files where !file.hasSuffix(".json") {
            if let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) { fragments.add(text, source: file) }
        }
        return files.map { importFile($0, endpoint: endpoint, fragments: fragments) }
    }

    static func importFile(_ file: String, endpoint: String, fragments: GraphQLFragments = GraphQLFragments()) -> ImportedFile {
        var result = ImportedFile(file: file)
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            result.errors = [FixtureError(file: file, field: "", problem: "cannot be read as UTF-8 text")]
            return result
        }
        if file.hasSuffix(".json") { return manifest(text, file: file, endpoint: endpoint) }
        switch GraphQLDocument.parse(text, fragments: fragments) {
        case .failure(let problem):
            result.errors = [FixtureError(file: file, field: "", problem: problem.description)]
        case .success(let document):
            for name in document.unknownFragments {
                result.unsupported.append("\(file): fragment \(name) is spread (...\(name)) but no imported file defines it; its fields are left out of the answers — import the file that defines it too (a folder imports every .graphql file in it)")
            }
            for (index, operation) in document.operations.enumerated() {
                guard let name = operation.name else {
                    result.unsupported.append("\(file): operation \(index + 1): anonymous; name it (query Name { … }) to stub it — every operation is POST \(endpoint), only the name tells them apart")
                    continue
                }
                result.fixtures += routes(name: name, operation: operation, source: "\(file) \(operation.kind.rawValue) \(name)", endpoint: endpoint)
            }
        }
        return result
    }

    /// An Apollo persisted-query manifest: `{"operations": [{"id", "name", "type", "body"}]}`.
    static func manifest(_ text: String, file: String, endpoint: String) -> ImportedFile {
        var result = ImportedFile(file: file)
        guard case .array(let operations)? = (try? JSONParser.parse(Array(text.utf8)))?["operations"] else {
            result.errors = [FixtureError(file: file, field: "operations", problem: "expected an Apollo persisted-query manifest: {\"operations\": [{\"id\", \"name\", \"type\", \"body\"}]}")]
            return result
        }
        for (index, entry) in operations.enumerated() {
            guard case .string(let body)? = entry["body"], case .string(let name)? = entry["name"] else {
                result.errors.append(FixtureError(file: file, field: "operations[\(index)]", problem: "expected name and body"))
                continue
            }
            switch GraphQLDocument.parse(body) {
            case .failure(let problem):
                result.errors.append(FixtureError(file: file, field: "operations[\(index)].body", problem: problem.description))
            case .success(let document):
                guard let operation = document.operation(named: name) else {
                    result.errors.append(FixtureError(file: file, field: "operations[\(index)].name", problem: "no operation \(name) in its body"))
                    continue
                }
                // The manifest's id is the hash a persisted-query client sends: the routes take it too.
                var hash: String?
                if case .string(let id)? = entry["id"], !id.isEmpty { hash = id }
                result.fixtures += routes(name: name, operation: operation, source: "\(file) operations[\(index)]", endpoint: endpoint, hash: hash)
            }
        }
        if !result.errors.isEmpty { result.fixtures = [] }
        return result
    }

    /// `POST endpoint` for the operation, and for a query `GET endpoint` too (automatic persisted
    /// queries send hashed queries as GETs; `useGETForQueries` sends them all so): one answer.
    /// `hash`: a manifest's id — the routes then take a request carrying the name, the hash or both.
    static func routes(name: String, operation: GraphQLDocument.Operation, source: String, endpoint: String, hash: String? = nil) -> [Fixture] {
        let body = JSONWriter.write(.object([("data", skeleton(operation.selections))]), pretty: false)
        let response = StubHTTPResponse(status: 200, headers: [NameValue("Content-Type", "application/json")], body: Array(body.utf8))
        return (operation.kind == .query ? ["POST", "GET"] : ["POST"]).map { method in
            var request = RequestPattern(method: method, path: endpoint)
            request.graphQL = GraphQLPattern(operationName: name)
            request.graphQL?.persistedQueryHash = hash
            request.query.othersAllowed = true
            return Fixture(name: method == "POST" ? name : "\(name) (GET)", source: source, request: request, outcome: .response(response))
        }
    }

    /// Objects for fields that select more, `null` for leaves.
    static func skeleton(_ fields: [GraphQLDocument.Field]) -> JSONValue {
        .object(fields.map { field in (field.responseName, field.selections.isEmpty ? .null : skeleton(field.selections)) })
    }
}
