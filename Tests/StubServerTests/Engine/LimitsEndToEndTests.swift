import Foundation
import StubdSystem
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A slow, malformed or oversized client cannot pin the server; start-up errors are typed.
@Suite(.serialized, .tags(.process)) struct LimitsEndToEndTests {
    @Test func oversizedHeadersGet400() throws {
        let server = try TestServer(fixtures: [route("/a", outcome: ok("a"))]) { $0.maxHeaderBytes = 1024 }
        defer { server.stop() }
        let request = "GET /a HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 4096))\r\n\r\n"
        let reply = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array(request.utf8)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 400"))
    }

    @Test func oversizedBodiesGet413() throws {
        let server = try TestServer(fixtures: [route("/a", method: "POST", outcome: ok("a"))]) { $0.maxBodyBytes = 1000 }
        defer { server.stop() }
        let result = try Curl.run(["-X", "POST", "--data", String(repeating: "x", count: 5000), "-w", "%{http_code}",
                                   "-o", "/dev/null", server.url("/a")])
        #expect(result.stdout == "413")
    }

    @Test func malformedRequestsGet400AndUnknownMethods501() throws {
        let server = try TestServer(fixtures: [route("/a", outcome: ok("a"))])
        defer { server.stop() }
        let garbage = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("NOT HTTP AT ALL\r\n\r\n".utf8)), as: UTF8.self)
        #expect(garbage.hasPrefix("HTTP/1.1 400") || garbage.hasPrefix("HTTP/1.0 400"))
        let custom = String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("PROPFIND /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8)), as: UTF8.self)
        #expect(custom.contains(" 501 "))
    }

    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() throws {
        let server = try TestServer(fixtures: [route("/a", outcome: ok("a"))]) { $0.idleTimeoutSeconds = 0.5 }
        defer { server.stop() }
        let start = Date()
        let reply = RawHTTP.exchange(port: server.port, bytes: Array("GET /a HTTP/1.1\r\nHost: x\r\n".utf8), timeout: 5)
        let elapsed = Date().timeIntervalSince(start)
        #expect(reply.isEmpty)
        #expect(elapsed >= 0.4 && elapsed < 4)
    }

    @Test func aPortInUseIsATypedErrorNamingThePort() throws {
        let first = try TestServer(fixtures: [])
        defer { first.stop() }
        do {
            _ = try StubdServer.start(table: .empty, port: first.port, logger: nil)
            Issue.record("a second server bound the same port")
        } catch {
            #expect(error == .bind(host: "127.0.0.1", port: first.port, errno: .addressInUse))
            #expect(error.description.hasPrefix("--port \(first.port): 127.0.0.1:\(first.port) is already in use"))
        }
    }

    @Test func afterStopThePortIsClosed() throws {
        let server = try TestServer(fixtures: [route("/a", outcome: ok("a"))])
        server.stop()
        server.stop()
        let result = try Curl.run([server.url("/a")], maxTime: 2)
        #expect(result.status == 7)
    }

    @Test func severalServersRunInOneProcess() throws {
        let a = try TestServer(fixtures: [route("/who", outcome: ok("a"))])
        let b = try TestServer(fixtures: [route("/who", outcome: ok("b"))]) { $0.workers = 2 }
        defer { a.stop(); b.stop() }
        #expect(try Curl.run([a.url("/who")]).stdout == "a")
        #expect(try Curl.run([b.url("/who")]).stdout == "b")
    }
}
