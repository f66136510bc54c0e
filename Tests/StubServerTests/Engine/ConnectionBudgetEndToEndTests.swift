import Foundation
import Testing
import StubdTestSupport
import StubdSystem
import Synchronization
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// What gives way at the connection cap (issue 30, floods), over real sockets with a cap of 4:
/// connections whose clients have left go first, then the one silent longest; a connection whose
/// client has sent bytes is never closed to make room, so a flood cannot close a normal client's
/// connection before its request is read.
@Suite(.tags(.process))
struct ConnectionBudgetEndToEndTests {
    static func server() throws -> TestServer {
        try TestServer(fixtures: [route("/zen", outcome: ok("zen"))]) { configuration in
            configuration.workers = 1
            configuration.maxConnections = 4
        }
    }

    /// Whether the peer closed `fd` (reads until end of stream or `seconds`).
    static func closedByServer(_ fd: Int32, seconds: Double = 5) -> Bool {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    @Test func atTheCapTheSilentGiveWayAndARequestOnItsWayIsNeverClosed() throws {
        let server = try Self.server()
        defer { server.stop() }
        // One client has sent half a head: its request is on its way.
        let sending = RawHTTP.connectLoopback(port: server.port)
        defer { close(sending) }
        System.sendAll(sending, Array("GET /zen HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8))
        // Three clients connect and say nothing.
        var silent: [Int32] = []
        for _ in 0..<3 { silent.append(RawHTTP.connectLoopback(port: server.port)) }
        defer { for fd in silent { close(fd) } }
        // The cap is reached: a new client makes room with the oldest silent one, not with the
        // client whose request is on its way. (At ¾ of the cap, heads must arrive within half a
        // second to a second, so the half-sent request is finished at once.)
        let answer = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", server.url("/zen")])
        #expect(answer.stdout == "200", "\(answer.stdout) \(answer.stderr)")
        let reply = RawHTTP.roundTrip(sending, "Connection: close\r\n\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 200"), "the half-sent request was closed: \(reply.prefix(60))")
        #expect(Self.closedByServer(silent[0], seconds: 2), "the oldest silent client gave way")
    }

    @Test func clientsThatLeftAreClearedBeforeAnyoneIsClosed() throws {
        let server = try Self.server()
        defer { server.stop() }
        // A silent client, then a flood of connect-and-close far past the cap.
        let silent = RawHTTP.connectLoopback(port: server.port)
        defer { close(silent) }
        for _ in 0..<200 {
            let fd = RawHTTP.connectLoopback(port: server.port)
            close(fd)
        }
        let answer = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", server.url("/zen")])
        #expect(answer.stdout == "200")
        // The silent client was not needed to make room: the flood's connections were.
        var byte: UInt8 = 0
        #expect(recv(silent, &byte, 1, Int32(MSG_DONTWAIT)) == -1, "the silent client is still connected")
    }

    @Test func clientsThatReconnectAsSoonAsTheyAreClosedDoNotStarveTheLoop() throws {
        // More reconnecting clients than the cap, so every accept makes room with one of them.
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))]) { configuration in
            configuration.workers = 1
            configuration.maxConnections = 16
        }
        defer { server.stop() }
        final class Flag: Sendable { let raised = Mutex(false) }
        let stop = Flag()
        let reopeners = (0..<24).map { _ in
            Thread {
                while !stop.raised.withLock({ $0 }) {
                    let fd = RawHTTP.connectLoopback(port: server.port)
                    if fd >= 0 {
                        _ = Self.closedByServer(fd, seconds: 1)
                        close(fd)
                    }
                }
            }
        }
        for thread in reopeners { thread.start() }
        defer { stop.raised.withLock { $0 = true } }
        var answered = 0
        for _ in 0..<20 {
            let answer = try Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2", server.url("/zen")])
            if answer.stdout == "200" { answered += 1 }
        }
        #expect(answered == 20)
    }
}
