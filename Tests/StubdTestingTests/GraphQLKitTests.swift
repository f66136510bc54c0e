import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubdTesting
import Testing
import StubdTestTags

/// `session.stub(operation:variables:data:errors:)` (issue 36): a GraphQL app's operations
/// stubbed per test over a real socket, told apart by name and variables, with `errors` beside
/// partial `data`; another session does not see them.
@Suite(.tags(.socket)) struct GraphQLKitTests {
    static func post(_ base: URL, session: String?, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: base.appendingPathComponent("graphql"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let session { request.setValue(session, forHTTPHeaderField: "X-Stubd-Session") }
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test func operationsStubbedPerSessionByNameAndVariables() async throws {
        let server = try KitServer()
        defer { server.stop() }
        let session = try await Stubd.session(baseURL: server.url)
        try await session.stub(operation: "ProfileQuery", variables: ["id": 7], data: ["user": ["id": 7, "name": "Ada"]])
        try await session.stub(operation: "ProfileQuery", variables: ["id": 8], data: ["user": NSNull()],
                               errors: [["message": "not found", "path": ["user"]]])
        let query = "query ProfileQuery($id: ID!) { user(id: $id) { id name } }"
        let ada = try await Self.post(server.url, session: session.id, ["query": query, "variables": ["id": 7]])
        #expect(ada.status == 200 && ((ada.json["data"] as? [String: Any])?["user"] as? [String: Any])?["name"] as? String == "Ada", "\(ada)")
        let missing = try await Self.post(server.url, session: session.id, ["query": query, "variables": ["id": 8]])
        #expect((missing.json["errors"] as? [[String: Any]])?.first?["message"] as? String == "not found", "\(missing)")
        #expect((missing.json["data"] as? [String: Any])?["user"] is NSNull, "\(missing)")
        let elsewhere = try await Self.post(server.url, session: nil, ["query": query, "variables": ["id": 7]])
        #expect(elsewhere.status == 404, "another session (none) does not see the stub")
    }
}
