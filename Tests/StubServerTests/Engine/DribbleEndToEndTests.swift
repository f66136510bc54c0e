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

/// A dribbled body arrives whole, in pieces, over the configured time; a client that leaves
/// half-way costs the server nothing.
@Suite(.serialized, .tags(.process)) struct DribbleEndToEndTests {
    static let body = String(repeating: "0123456789", count: 40)

    static func server() throws -> TestServer {
        var slow = route("/slow", outcome: ok(body))
        slow.dribble = Dribble(chunks: 4, seconds: 1.0)
        return try TestServer(fixtures: [slow, route("/fast", outcome: ok("fast"))])
    }

    @Test func theBodyArrivesWholeAfterTheDribbleTimeWithHeadersAtOnce() throws {
        let server = try Self.server()
        defer { server.stop() }
        let result = try Curl.run(["-w", "\n%{time_starttransfer} %{time_total}", server.url("/slow")])
        let lines = result.stdout.components(separatedBy: "\n")
        #expect(lines.first == Self.body)
        let times = lines.last!.split(separator: " ").compactMap { Double($0) }
        #expect(times.count == 2)
        #expect(times[0] < 0.5)
        #expect(times[1] >= 1.0 && times[1] < 3)
    }

    @Test func thePiecesArriveSeparately() throws {
        let server = try Self.server()
        defer { server.stop() }
        let fd = RawHTTP.connectLoopback(port: server.port)
        defer { close(fd) }
        _ = Array("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var arrivals: [Date] = []
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            arrivals.append(Date())
            total += n
        }
        #expect(arrivals.count >= 4)
        #expect(arrivals.last!.timeIntervalSince(arrivals.first!) >= 0.75)
        #expect(total > Self.body.utf8.count)
    }

    @Test func aClientLeavingHalfWayDoesNotDisturbTheServer() throws {
        let server = try Self.server()
        defer { server.stop() }
        let fd = RawHTTP.connectLoopback(port: server.port)
        _ = Array("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = recv(fd, &buffer, buffer.count, 0)
        close(fd)
        // A whole dribble fetched now overlaps every remaining tick of the abandoned one.
        #expect(try Curl.run([server.url("/slow")]).stdout == Self.body)
        #expect(try Curl.run([server.url("/fast")]).stdout == "fast")
    }

    @Test func headGetsHeadersWithoutWaiting() throws {
        let server = try Self.server()
        defer { server.stop() }
        let result = try Curl.run(["-I", "-w", "%{time_total}", server.url("/slow")])
        #expect(result.stdout.contains("Content-Length: 400\r\n"))
        #expect((Double(result.stdout.components(separatedBy: "\r\n").last ?? "") ?? 9) < 0.5)
    }
}
