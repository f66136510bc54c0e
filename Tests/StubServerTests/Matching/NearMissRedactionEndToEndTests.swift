import Foundation
import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A near-miss report redacts by the journal's rules whatever kind of body it echoes (issue 30):
/// a multipart or byte-order-marked JSON body that misses a form route showed its `password`
/// value in the 404 and in the journal.
@Suite(.tags(.process))
struct NearMissRedactionEndToEndTests {
    static let formRoute = Fixture(name: "login", source: "test", request: RequestPattern(method: "POST", path: "/login", body: .form([NameValue("user", "a"), NameValue("password", "x")])),
                                   outcome: .response(StubHTTPResponse(status: 204)))

    @Test(arguments: [
        ("multipart", ["-F", "user=a", "-F", "password=hunter2-secret"]),
        ("bom-json", ["-H", "Content-Type: text/plain", "--data-binary", "\u{FEFF}{\"user\": \"a\", \"password\": \"hunter2-secret\"}"]),
        ("json", ["-H", "Content-Type: application/json", "--data-binary", "{\"user\": \"a\", \"password\": \"hunter2-secret\"}"]),
        ("form", ["--data", "user=b&password=hunter2-secret"]),
    ])
    func noBodyKindEchoesASecret(kind: String, arguments: [String]) throws {
        let server = try TestServer(fixtures: [Self.formRoute, Fixture(name: "pick", source: "test",
            request: RequestPattern(method: "POST", path: "/pick", body: .jsonPath(try JSONPath.parse("$.password").get(), .equalTo("right", caseInsensitive: false))),
            outcome: .response(StubHTTPResponse(status: 204)))])
        defer { server.stop() }
        let missed = try Curl.run(["-w", "\n%{http_code}"] + arguments + [server.url("/login")])
        #expect(missed.stdout.hasSuffix("\n404"), "\(kind): \(missed.stdout)")
        #expect(!missed.stdout.contains("hunter2"), "\(kind): \(missed.stdout)")
        let picked = try Curl.run(["-H", "Content-Type: application/json", "--data", #"{"password": "hunter2-secret"}"#, server.url("/pick")])
        #expect(!picked.stdout.contains("hunter2"), "\(picked.stdout)")
        let journal = try Curl.run([server.url("/__stubd/requests")]).stdout
        #expect(!journal.contains("hunter2"), "\(kind): the journal shows \(journal)")
    }
}
