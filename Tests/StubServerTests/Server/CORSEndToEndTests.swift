import Foundation
import Testing
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract

@Suite(.serialized) struct CORSEndToEndTests {
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

    @Test func originsCanBeListedOrCORSSwitchedOff() throws {
        let listed = try TestServer(fixtures: [route("/d", outcome: ok("d"))], cors: CORSPolicy(enabled: true, allowedOrigins: ["https://app.example"]))
        defer { listed.stop() }
        #expect(try Curl.run(["-i", "-H", "Origin: https://app.example", listed.url("/d")]).stdout.contains("Access-Control-Allow-Origin: https://app.example"))
        #expect(!(try Curl.run(["-i", "-H", "Origin: https://evil.example", listed.url("/d")]).stdout.contains("Access-Control")))
        let off = try TestServer(fixtures: [route("/d", outcome: ok("d"))], cors: CORSPolicy(enabled: false))
        defer { off.stop() }
        let preflight = try Curl.run(["-i", "-X", "OPTIONS", "-H", "Origin: http://localhost", "-H", "Access-Control-Request-Method: GET", off.url("/d")])
        #expect(preflight.stdout.hasPrefix("HTTP/1.1 404"))
        #expect(!preflight.stdout.contains("Access-Control"))
    }
}
