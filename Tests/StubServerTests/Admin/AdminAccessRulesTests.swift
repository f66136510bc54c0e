import Testing
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// Who may use the admin API, decided without a socket.
@Suite(.tags(.inMemory)) struct AdminAccessRulesTests {
    static func request(host: String?, peer: String = "127.0.0.1", headers: [NameValue] = [], method: String = "GET") -> IncomingRequest {
        var request = IncomingRequest(method: method, target: "/__stubd/health", headers: (host.map { [NameValue("Host", $0)] } ?? []) + headers)
        request.peer = peer
        return request
    }

    @Test(arguments: ["localhost", "localhost:80", "127.0.0.1", "127.9.8.7:1", "[::1]:9000", "[::ffff:127.0.0.1]", "LOCALHOST."])
    func loopbackHostsAreAnswered(host: String) {
        #expect(AdminAccess(host: "127.0.0.1").refusal(for: Self.request(host: host)) == nil, "\(host)")
    }

    @Test(arguments: ["127.0.0.1.attacker.example", "127.evil.example", "127.0.0.1.nip.io:8080", "localhost.evil.example", "127.1", "0x7f.0.0.1",
                      "[::ffff:127.0.0.1.evil]", "10.0.0.1"])
    func namesAndOtherAddressesAreRefused(host: String) {
        #expect(AdminAccess(host: "127.0.0.1").refusal(for: Self.request(host: host))?.status == 403, "\(host)")
    }

    @Test func anotherMachineAndAPageAreRefused() {
        let access = AdminAccess(host: "127.0.0.1")
        #expect(access.refusal(for: Self.request(host: "localhost", peer: "192.168.1.20"))?.status == 403)
        #expect(access.refusal(for: Self.request(host: "localhost", headers: [NameValue("Origin", "http://localhost:3000")]))?.status == 403)
        #expect(access.refusal(for: Self.request(host: "localhost", headers: [NameValue("Content-Type", "text/plain")], method: "POST"))?.status == 415)
    }

    @Test func theBearerSchemeIsCaseInsensitiveAndTheTokenExact() {
        #expect(AdminAccess.bearerToken("Bearer abc") == "abc")
        #expect(AdminAccess.bearerToken("bearer  abc ") == "abc")
        #expect(AdminAccess.bearerToken("BEARER\tabc") == "abc")
        #expect(AdminAccess.bearerToken("Basic abc") == nil && AdminAccess.bearerToken("Bearer ") == nil && AdminAccess.bearerToken(nil) == nil)
        let access = AdminAccess(host: "0.0.0.0", token: "s3cret")
        #expect(access.refusal(for: Self.request(host: "h", peer: "10.0.0.2", headers: [NameValue("Authorization", "bearer s3cret")])) == nil)
        #expect(access.refusal(for: Self.request(host: "h", peer: "10.0.0.2", headers: [NameValue("Authorization", "Bearer s3cre")]))?.status == 401)
    }
}
