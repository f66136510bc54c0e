import Foundation
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

@Suite(.serialized, .tags(.process)) struct CORSEndToEndTests {
    @Test func preflightIsAnsweredAndResponsesCarryAllowHeadersOnLoopback() throws {
        let server = try TestServer(fixtures: [route("/data", method: "POST", outcome: ok("d", headers: [NameValue("X-Total", "3")]))])
        defer { server.stop() }
        let preflight = try Curl.run(["-i", "-X", "OPTIONS", "-H", "Origin: http://localhost:3000",
                                      "-H", "Access-Control-Request-Method: POST", "-H", "Access-Control-Request-Headers: content-type",
                                      server.url("/data")])
        #expect(preflight.stdout.hasPrefix("HTTP/1.1 204"))
        #expect(preflight.stdout.contains("Access-Control-Allow-Origin: http://localhost:3000\r\n"))
        #expect(preflight.stdout.contains("Access-Control-Allow-Methods: POST\r\n"))
        #expect(preflight.stdout.contains("Access-Control-Allow-Headers: content-type\r\n"))
        let actual = try Curl.run(["-i", "-X", "POST", "-H", "Origin: http://localhost:3000", server.url("/data")])
        #expect(actual.stdout.contains("Access-Control-Allow-Origin: http://localhost:3000\r\n"))
        #expect(actual.stdout.contains("Access-Control-Expose-Headers: X-Total\r\n"))
        let noOrigin = try Curl.run(["-i", "-X", "POST", server.url("/data")])
        #expect(!noOrigin.stdout.contains("Access-Control"))
    }
}
