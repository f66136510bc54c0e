import Foundation
import StubModel
import StubdSystem
import StubdTesting
import Testing
import StubdTestSupport
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// The admin API belongs to its owner: web pages, forged Host names, HTML-form-shaped writes and
/// other machines are refused with a JSON error naming the flag that would allow them, and the
/// state stays as it was. Stubs are served to everyone either way.
@Suite(.serialized, .tags(.process)) struct AdminAccessEndToEndTests {
    static let addZen = #"{"request": {"method": "GET", "path": "/pwned"}, "response": {"text": "pwned"}}"#

    static func runtimeRoutes(_ server: TestServer) -> Int { server.server.admin.health.runtimeRoutes }

    @Test func aForeignOriginIsRefusedAndItsPreflightGetsNoCORS() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))])
        defer { server.stop() }
        let preflight = try Curl.run(["-i", "-X", "OPTIONS", "-H", "Origin: http://evil.example", "-H", "Access-Control-Request-Method: POST",
                                      "-H", "Access-Control-Request-Headers: content-type", server.url("/__stubd/routes")])
        #expect(preflight.stdout.hasPrefix("HTTP/1.1 403"))
        #expect(!preflight.stdout.lowercased().contains("access-control-allow-origin"))
        let write = try Curl.run(["-i", "-X", "POST", "-H", "Origin: http://evil.example", "-H", "Content-Type: application/json",
                                  "--data", Self.addZen, server.url("/__stubd/routes")])
        #expect(write.stdout.hasPrefix("HTTP/1.1 403"))
        #expect(write.stdout.contains("--admin-cors-origin http://evil.example"))
        #expect(Self.runtimeRoutes(server) == 0)
        let read = try Curl.run(["-i", "-H", "Origin: http://evil.example", server.url("/__stubd/requests")])
        #expect(read.stdout.hasPrefix("HTTP/1.1 403"))
        // The stubs keep today's CORS: any origin on loopback.
        let stub = try Curl.run(["-i", "-H", "Origin: http://evil.example", server.url("/zen")])
        #expect(stub.stdout.contains("Access-Control-Allow-Origin: http://evil.example"))
    }

    @Test func aListedAdminOriginGetsCORSAndMayWrite() throws {
        let access = AdminAccess(host: "127.0.0.1", corsOrigins: ["http://dashboard.test"])
        let server = try TestServer(fixtures: [], access: access)
        defer { server.stop() }
        let preflight = try Curl.run(["-i", "-X", "OPTIONS", "-H", "Origin: http://dashboard.test", "-H", "Access-Control-Request-Method: POST",
                                      server.url("/__stubd/routes")])
        #expect(preflight.stdout.hasPrefix("HTTP/1.1 204"))
        #expect(preflight.stdout.contains("Access-Control-Allow-Origin: http://dashboard.test"))
        let write = try Curl.run(["-X", "POST", "-H", "Origin: http://dashboard.test", "-H", "Content-Type: application/json",
                                  "--data", Self.addZen, "-w", "%{http_code}", "-o", "/dev/null", server.url("/__stubd/routes")])
        #expect(write.stdout == "201")
    }

    @Test func aForgedHostIsRefusedUnlessAllowed() throws {
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))])
        defer { server.stop() }
        let rebound = try Curl.run(["-i", "-H", "Host: attacker.example:8080", server.url("/__stubd/health")])
        #expect(rebound.stdout.hasPrefix("HTTP/1.1 403"))
        #expect(rebound.stdout.contains("--allowed-host attacker.example"))
        #expect(try Curl.run(["-H", "Host: attacker.example", server.url("/zen")]).stdout == "zen")
        for host in ["localhost:1234", "127.0.0.1", "[::1]:80"] {
            #expect(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.url("/__stubd/health")]).stdout == "200")
        }
        // DNS rebinding: a name that starts like a loopback address is still a name anyone can point anywhere.
        for host in ["127.0.0.1.attacker.example", "127.evil.example", "127.0.0.1.nip.io:8080", "localhost.attacker.example", "127.1", "0x7f.0.0.1",
                     "[::ffff:127.0.0.1.evil]"] {
            let reply = try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", server.url("/__stubd/requests")]).stdout
            #expect(reply == "403", "Host: \(host)")
        }
        #expect(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: 127.8.9.10:1", server.url("/__stubd/health")]).stdout == "200")
        #expect(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: [::ffff:127.0.0.1]", server.url("/__stubd/health")]).stdout == "200")
        let allowing = try TestServer(fixtures: [], access: AdminAccess(host: "127.0.0.1", allowedHosts: ["stubd.test"]))
        defer { allowing.stop() }
        #expect(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: stubd.test:9", allowing.url("/__stubd/health")]).stdout == "200")
    }

    @Test func aFormShapedWriteAddsNothing() throws {
        let server = try TestServer(fixtures: [])
        defer { server.stop() }
        for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
            let result = try Curl.run(["-X", "POST", "-H", "Content-Type: \(type)", "--data", Self.addZen, "-w", "\n%{http_code}",
                                       server.url("/__stubd/routes")])
            #expect(result.stdout.hasSuffix("\n415"))
            #expect(result.stdout.contains("Content-Type: application/json"))
        }
        #expect(Self.runtimeRoutes(server) == 0)
        #expect(try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", server.url("/pwned")]).stdout == "404")
    }

    @Test func duplicateContentLengthsAreRefused() throws {
        let server = try TestServer(fixtures: [route("/zen", method: "POST", outcome: ok("zen"))])
        defer { server.stop() }
        let reply = RawHTTP.exchange(port: server.port, bytes: Array(
            "POST /zen HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nabcde".utf8))
        let text = String(decoding: reply, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400"))
        #expect(text.contains("Connection: close"))
        // Framing libevent would guess at: a signed length, a space before the colon (which would
        // leave the body to be read as the next request).
        for head in ["Content-Length: +3", "Content-Length: 0x3", "Content-Length : 3", "Content-Length: 1 2"] {
            let refused = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(
                "POST /zen HTTP/1.1\r\nHost: x\r\n\(head)\r\n\r\nabc".utf8)), as: UTF8.self)
            #expect(refused.hasPrefix("HTTP/1.1 400") && refused.contains("Connection: close"), "\(head): \(refused)")
            #expect(!refused.contains("zen"), "\(head)")
        }
        let same = RawHTTP.exchange(port: server.port, bytes: Array(
            "POST /zen HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc".utf8))
        #expect(String(decoding: same, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }
}

/// On an address other machines can reach, the admin API needs the token; stubs do not.
@Suite(.serialized, .tags(.process)) struct ExposedAdminEndToEndTests {
    /// A non-loopback IPv4 address of this machine (traffic to it stays on the machine).
    static let address = StubdSystem.System.nonLoopbackIPv4Addresses().first

    static func server(token: String?) throws -> (TestServer, String) {
        let host = try #require(address)
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))], access: AdminAccess(host: host, token: token)) {
            $0.host = host
        }
        return (server, "http://\(host):\(server.port)")
    }

    @Test(.enabled(if: address != nil, "this machine has no non-loopback IPv4 address to listen on"))
    func withoutATokenTheAdminAPIIsOffButStubsAreServed() throws {
        let (server, base) = try Self.server(token: nil)
        defer { server.stop() }
        let health = try Curl.run(["-i", base + "/__stubd/health"])
        #expect(health.stdout.hasPrefix("HTTP/1.1 403"))
        #expect(health.stdout.contains("--admin-token"))
        let write = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", AdminAccessEndToEndTests.addZen,
                                  "-o", "/dev/null", "-w", "%{http_code}", base + "/__stubd/routes"])
        #expect(write.stdout == "403")
        #expect(server.server.admin.health.runtimeRoutes == 0)
        #expect(try Curl.run([base + "/zen"]).stdout == "zen")
    }

    @Test(.enabled(if: address != nil, "this machine has no non-loopback IPv4 address to listen on"))
    func withATokenEveryAdminCallMustCarryIt() async throws {
        let (server, base) = try Self.server(token: "s3cret-token")
        defer { server.stop() }
        let missing = try Curl.run(["-i", base + "/__stubd/requests"])
        #expect(missing.stdout.hasPrefix("HTTP/1.1 401"))
        #expect(missing.stdout.contains("WWW-Authenticate: Bearer"))
        let wrong = try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer s3cret-tokem", base + "/__stubd/health"])
        #expect(wrong.stdout == "401")
        let right = try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer s3cret-token", base + "/__stubd/health"])
        #expect(right.stdout == "200")
        // The scheme is case-insensitive (RFC 9110 §11.1).
        for scheme in ["bearer", "BEARER", "Bearer  "] {
            let reply = try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: \(scheme) s3cret-token", base + "/__stubd/health"])
            #expect(reply.stdout == "200", "\(scheme)")
        }
        let basic = try Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Basic s3cret-token", base + "/__stubd/health"])
        #expect(basic.stdout == "401")
        let client = StubdAdminClient(baseURL: URL(string: base)!, token: "s3cret-token")
        let ids = try await client.add([route("/added", outcome: ok("added"))])
        #expect(ids == ["r1"])
        #expect(try Curl.run([base + "/added"]).stdout == "added")
        await #expect(throws: StubdAdminError.self) { try await StubdAdminClient(baseURL: URL(string: base)!).health() }
    }
}
