import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubdTestTags
import StubdEngine

/// `GET /__stubd/requests/snapshot`: a session's requests as the canonical text any language's
/// test can compare with a file.
@Suite(.tags(.inMemory)) struct SnapshotServingTests {
    @Test func aSessionsRequestsComeAsCanonicalText() throws {
        let stubd = try InMemoryStubd(#"{"routes": [{"request": {"method": "POST", "path": "/login"}, "response": {"status": 204}}]}"#)
        defer { stubd.stop() }
        let session = [("X-Stubd-Session", "snap"), ("Content-Type", "application/json")]
        _ = stubd.send("POST", "/login?b=2&a=1", headers: session, body: #"{"user": "ada", "password": "pw"}"#)
        _ = stubd.send("POST", "/login", headers: [("X-Stubd-Session", "other")], body: "{}")
        let reply = try #require(stubd.get("/__stubd/requests/snapshot", headers: [("X-Stubd-Session", "snap")]))
        let json = try JSONParser.parse(reply.body)
        guard case .string(let text)? = json["snapshot"] else { Issue.record("no snapshot in \(reply.text)"); return }
        #expect(text == "POST /login\n  query: a=1&b=2\n  Content-Type: application/json\n  body: {\"password\":\"[redacted]\",\"user\":\"ada\"}\n", "\(text)")
    }
}
