import Dispatch
import Foundation
import StubModel
import StubdSystem
import Synchronization
import Testing
import StubdTestSupport
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// `GET /__stubd/events` over real sockets, without a browser: events in journal order, a tab
/// that stops reading dropped while another client is served. A reconnect with `Last-Event-ID`
/// in memory: `EventStreamServingTests`.
@Suite(.serialized, .tags(.process)) struct EventStreamEndToEndTests {
    /// `curl -N` reading the stream in the background; `wait` returns when the text so far
    /// satisfies a condition (woken by each arrival, bounded by a deadline).
    final class StreamReader: @unchecked Sendable {
        private let process = Process()
        private let lock = NSLock()
        private var text = ""
        private let arrived = DispatchSemaphore(value: 0)

        init(_ url: String, headers: [String] = []) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-sN", "--max-time", "30"] + headers.flatMap { ["-H", $0] } + [url]
            let pipe = Pipe()
            process.standardOutput = pipe
            pipe.fileHandleForReading.readabilityHandler = { [self] handle in
                let data = handle.availableData
                // At the end of curl's output the handler would be called again and again: stop it.
                if data.isEmpty {
                    handle.readabilityHandler = nil
                    return
                }
                lock.withLock { text += String(decoding: data, as: UTF8.self) }
                arrived.signal()
            }
            try process.run()
        }

        var current: String { lock.withLock { text } }

        /// Event ids received, in order.
        var ids: [Int] {
            current.split(separator: "\n").compactMap { line in line.hasPrefix("id: ") ? Int(line.dropFirst(4)) : nil }
        }

        @discardableResult
        func wait(timeout: Double = 10, until condition: (StreamReader) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(self) {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return false }
                _ = arrived.wait(timeout: .now() + left)
            }
            return true
        }

        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static let fixtures = [route("/zen", outcome: ok("zen")), route("/item", outcome: ok("item"))]

    @Test func eventsComeInJournalOrderWithTheJournalsSequenceAsID() throws {
        let server = try TestServer(fixtures: Self.fixtures)
        defer { server.stop() }
        let reader = try StreamReader(server.url("/__stubd/events"))
        defer { reader.stop() }
        #expect(reader.wait { $0.current.contains("retry: 1000") }, "the stream opened")
        let urls = (1...50).flatMap { ["-o", "/dev/null", server.url("/zen?n=\($0)")] }
        _ = try Curl.run(urls)
        #expect(reader.wait { $0.ids.count == 50 }, "\(reader.ids.count) of 50 events")
        #expect(reader.ids == Array(1...50))
        let urlsSeen = reader.current.split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap { line -> String? in
            guard case .string(let url)? = (try? JSONParser.parse(Array(line.dropFirst(6).utf8)))?["url"] else { return nil }
            return url
        }
        #expect(urlsSeen == (1...50).map { "/zen?n=\($0)" })
    }

    @Test func aTabThatStopsReadingIsDroppedWhileAnotherClientsThousandRequestsAreServed() throws {
        // 64 KiB of every response is journaled, so each event is large and a stalled tab fills its
        // 8 MiB bound (and the socket buffers) within the thousand requests.
        let body = String(repeating: "x", count: 64 * 1024)
        let server = try TestServer(fixtures: [route("/big", outcome: ok(body))], journalBodyLimit: 64 * 1024) { $0.workers = 1 }
        defer { server.stop() }
        let stalled = RawHTTP.connectLoopback(port: server.port)
        defer { close(stalled) }
        System.sendAll(stalled, Array("GET /__stubd/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let journal = server.server.admin.journal
        let deadline = Date().addingTimeInterval(5)
        while journal.listeners.isEmpty && Date() < deadline {
            // The stream subscribes when its request is handled; a probe request gives the loop a turn.
            _ = try Curl.run(["-o", "/dev/null", server.url("/__stubd/health")])
        }
        #expect(!journal.listeners.isEmpty, "the stalled tab is subscribed")
        // Never read from `stalled`. Another client's thousand requests on the one loop:
        let urls = (1...1000).flatMap { _ in ["-o", "/dev/null", server.url("/big")] }
        let served = try Curl.run(["-w", "%{http_code}\n"] + urls, maxTime: 60)
        #expect(served.stdout.split(separator: "\n").filter { $0 == "200" }.count == 1000, "\(served.stderr.prefix(300))")
        // Events are encoded on the stream's own queue: the drop follows once it reaches the bound.
        let dropDeadline = Date().addingTimeInterval(20)
        while !journal.listeners.isEmpty && Date() < dropDeadline { _ = try Curl.run(["-o", "/dev/null", server.url("/__stubd/health")]) }
        #expect(journal.listeners.isEmpty, "the stalled tab was dropped")
        // Their latency on the server (arrival to reply handed to the socket) stayed that of a
        // loop that never waited for the tab.
        let slowest = journal.entries().map(\.latency).max() ?? 0
        #expect(slowest < 0.25, "slowest request \(slowest) s")
    }

    @Test func twentyStalledTabsAreEachDroppedAtTheirBound() throws {
        // Issue 30: stalled readers whose events sat in the kernel (≈ 8.4 MB each) were never
        // dropped, because the stream's own queue stayed under its bound. What the client has not
        // acknowledged counts too now.
        let body = String(repeating: "x", count: 64 * 1024)
        let server = try TestServer(fixtures: [route("/big", outcome: ok(body))], journalBodyLimit: 64 * 1024) { $0.workers = 1 }
        defer { server.stop() }
        let journal = server.server.admin.journal
        var stalled: [Int32] = []
        defer { for fd in stalled { close(fd) } }
        for _ in 0..<20 {
            let fd = RawHTTP.connectLoopback(port: server.port)
            System.sendAll(fd, Array("GET /__stubd/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            stalled.append(fd)
        }
        let deadline = Date().addingTimeInterval(5)
        while journal.listeners.count < 20 && Date() < deadline { _ = try Curl.run(["-o", "/dev/null", server.url("/__stubd/health")]) }
        #expect(journal.listeners.count == 20)
        let urls = (1...400).flatMap { _ in ["-o", "/dev/null", server.url("/big")] }
        _ = try Curl.run(urls, maxTime: 60)
        let dropDeadline = Date().addingTimeInterval(20)
        while !journal.listeners.isEmpty && Date() < dropDeadline { _ = try Curl.run(["-o", "/dev/null", server.url("/__stubd/health")]) }
        #expect(journal.listeners.isEmpty, "\(journal.listeners.count) of 20 stalled tabs still subscribed")
    }
}
