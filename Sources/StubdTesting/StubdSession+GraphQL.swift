import Foundation
import StubModel

extension StubdSession {
    /// Makes the GraphQL operation `operation` — sent to `endpoint` with these variables (each
    /// equal by JSON meaning, the app may send more) — answer `data`, and `errors` beside it when
    /// given, for this session only. Every operation of a GraphQL app is `POST /graphql`: this is
    /// how a test stubs one of them, as `stub(target)` does for a Moya target.
    ///
    ///     try await session.stub(operation: "ProfileQuery", variables: ["id": 7],
    ///                            data: ["user": ["id": 7, "name": "Ada"]])
    @discardableResult
    public func stub(operation: String, variables: [String: Any] = [:], data: Any?, errors: [[String: Any]]? = nil,
                     endpoint: String = "/graphql", status: Int = 200) async throws -> String {
        var request = RequestPattern(method: "POST", path: endpoint)
        request.graphQL = GraphQLPattern(operationName: operation,
                                         variables: try variables.sorted { $0.key < $1.key }.map { ($0.key, try Self.json($0.value)) })
        request.query.othersAllowed = true
        var answer: [(key: String, value: JSONValue)] = [("data", try data.map(Self.json) ?? .null)]
        if let errors { answer.append(("errors", .array(try errors.map(Self.json)))) }
        let body = JSONWriter.write(.object(answer), pretty: false)
        let response = StubHTTPResponse(status: status, headers: [NameValue("Content-Type", "application/json")], body: Array(body.utf8))
        let fixture = Fixture(name: operation, source: "StubdTesting session \(id)", request: request, outcome: .response(response))
        return try await admin.add([fixture]).first ?? ""
    }

    /// Foundation JSON (dictionaries, arrays, strings, numbers, booleans, NSNull) as a JSON value.
    static func json(_ value: Any) throws -> JSONValue {
        let data = try JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
        guard case .array(let items) = try JSONParser.parse([UInt8](data)), let first = items.first else {
            throw StubdTestingError.notJSON(String(describing: value))
        }
        return first
    }
}
