import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
import FixtureFiles
import StubdTestSupport
import StubModel
import StubServer
import StubdTestTags

/// Streams over real sockets: framing byte for byte (a raw-socket reader), events in separate
/// chunks at their pauses, a split UTF-8 character, and each stream fault as curl reports it.
@Suite(.tags(.process)) struct StreamEndToEndTests {
    static let fixtures = #"""
    {"routes": [
      {"request": {"method": "GET", "path": "/feed"},
       "stream": {"events": [{"id": "1", "event": "tick", "data": {"n": 1}}, {"data": "two\nlines"}, {"comment": "keep-alive"}, {"data": "héllo"}],
                  "pacing": {"first": 0.05, "between": 0.15}, "split": "utf8"}},
      {"request": {"method": "GET", "path": "/reset"}, "stream": {"events": [{"data": "a"}, {"data": "b"}, {"data": "c"}], "fault": {"kind": "reset", "after": 2}}},
      {"request": {"method": "GET", "path": "/close"}, "stream": {"events": [{"data": "a"}, {"data": "b"}], "fault": {"kind": "close", "after": 1}}},
      {"request": {"method": "GET", "path": "/stall"}, "stream": {"events": [{"data": "a"}, {"data": "b"}], "fault": {"kind": "stall", "after": 1, "seconds": 0.5}}},
      {"request": {"method": "GET", "path": "/end"}, "stream": {"events": [{"data": "a"}, {"data": "[DONE]"}], "fault": {"kind": "end", "after": 1}}},
      {"request": {"method": "GET", "path": "/malformed"}, "stream": {"format": "ndjson", "events": [{"data": {"a": 1}}, {"data": {"b": 2}}], "fault": {"kind": "malformed", "after": 0}}},
      {"request": {"method": "GET", "path": "/long"}, "stream": {"events": [{"data": "first"}, {"data": "late", "delay": 30}]}},
      {"request": {"method": "GET", "path": "/fast"}, "response": {"text": "fast"}},
      {"request": {"method": "GET", "path": "/flood"}, "stream": {"format": "chunked", "events": [\#(Array(repeating: "{\"data\": \"" + String(repeating: "x", count: 16384) + "\"}", count: 300).joined(separator: ","))], "pacing": {"between": 0.001}}}
    ]}
    """#

    static func server() throws -> TestServer {
        let fixtures = try FixtureReader(file: "streams.json") { path throws(FixtureReader.FixtureProblem) in
            throw FixtureReader.FixtureProblem("no body files: \(path)")
        }.read(Array(fixtures.utf8))
        return try TestServer(fixtures: fixtures)
    }

    /// Reads a whole response from a raw socket: the head, and each chunk of the chunked body with
    /// the time it was read.
    static func readChunks(port: Int, path: String) -> (head: String, chunks: [(bytes: [UInt8], at: Double)], ended: Bool) {
        let fd = RawHTTP.connectLoopback(port: port)
        defer { close(fd) }
        let start = Date()
        _ = Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var data: [UInt8] = []
        var times: [(end: Int, at: Double)] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date().timeIntervalSince(start) < 10 {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
            times.append((data.count, Date().timeIntervalSince(start)))
        }
        let headEnd = data.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? data.count
        var chunks: [(bytes: [UInt8], at: Double)] = []
        var position = headEnd
        var ended = false
        while let lineEnd = data[position...].firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: data[position..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? -1
            if size == 0 { ended = true; break }
            guard size > 0, lineEnd.upperBound + size + 2 <= data.count else { break }
            let end = lineEnd.upperBound + size
            chunks.append((Array(data[lineEnd.upperBound..<end]), times.first { $0.end >= end }?.at ?? 0))
            position = end + 2
        }
        return (String(decoding: data[..<headEnd], as: UTF8.self), chunks, ended)
    }

    @Test func eventsAreFramedExactlyAndArriveAtTheirPauses() throws {
        let server = try Self.server()
        defer { server.stop() }
        let feed = ExchangeWait(server.server, path: "/feed")
        let (head, chunks, ended) = Self.readChunks(port: server.port, path: "/feed")
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
        #expect(head.contains("Transfer-Encoding: chunked\r\n") && head.contains("Cache-Control: no-cache\r\n") && !head.contains("Content-Length"))
        #expect(ended, "the body was not ended with its last chunk")
        let body = String(decoding: chunks.flatMap(\.bytes), as: UTF8.self)
        #expect(body == "id: 1\nevent: tick\ndata: {\"n\":1}\n\ndata: two\ndata: lines\n\n: keep-alive\n\ndata: héllo\n\n", "\(body)")
        // Each event in two chunks (the split). Pauses: the loop's timers never fire early, so the
        // stream cannot end before its pauses add up (the journal's latency); on the client, a read
        // delayed by a loaded machine can join chunks, so only one gap is asked to show a pause.
        try #require(chunks.count == 8, "chunks: \(chunks.map { String(decoding: $0.bytes, as: UTF8.self) })")
        let gaps = (1..<4).map { chunks[2 * $0].at - chunks[2 * $0 - 1].at }
        #expect(gaps.contains { $0 >= 0.1 }, "event gaps \(gaps)")
        let latency = try #require(feed.ended(seconds: 5), "the stream was never journaled").latencySeconds
        #expect(latency >= 0.05 + 3 * 0.15, "the stream ended \(latency) s after its arrival, before its pauses")
    }

    @Test func aSplitUTF8CharacterArrivesInTwoChunks() throws {
        let server = try Self.server()
        defer { server.stop() }
        let chunks = Self.readChunks(port: server.port, path: "/feed").chunks
        try #require(chunks.count == 8)
        // A naive client decoding each piece alone sees a broken character; joined, it is whole.
        #expect(chunks[6].bytes.last == 0xC3 && String(validating: chunks[6].bytes, as: UTF8.self) == nil)
        #expect(String(decoding: chunks[6].bytes + chunks[7].bytes, as: UTF8.self) == "data: héllo\n\n")
        // An event without a multi-byte character is cut in its middle.
        #expect(String(decoding: chunks[0].bytes, as: UTF8.self) == "id: 1\nevent: tic")
    }

    @Test func eachStreamFaultIsWhatCurlReports() throws {
        let server = try Self.server()
        defer { server.stop() }
        let reset = try Curl.run(["-N", server.url("/reset")])
        #expect(reset.status == 56 && reset.stdout == "data: a\n\ndata: b\n\n", "reset: \(reset.status) \(reset.stderr) \(reset.stdout)")
        let closed = try Curl.run(["-N", server.url("/close")])
        #expect(closed.status == 18 && closed.stdout == "data: a\n\n", "close: \(closed.status) \(closed.stderr)")
        let started = Date()
        let stall = try Curl.run(["-N", server.url("/stall")])
        #expect(stall.status == 18 && stall.stdout == "data: a\n\n" && Date().timeIntervalSince(started) >= 0.45, "stall: \(stall.status) \(stall.stderr)")
        let end = try Curl.run(["-N", server.url("/end")])
        #expect(end.status == 0 && end.stdout == "data: a\n\n")
        let malformed = try Curl.run(["-N", server.url("/malformed")])
        #expect(malformed.status == 0 && malformed.stdout == "{\"a\n{\"b\":2}\n", "malformed: \(malformed.stdout)")
        // A stall with a client read timeout is a timeout.
        let timeout = try Curl.run(["-N", server.url("/stall")], maxTime: 0.2)
        #expect(timeout.status == 28)
    }

    /// A client that stops reading a 4.7 MB stream is dropped once 1 MiB waits for it (in stubd,
    /// its connection's buffer and the kernel), and the loop serves others meanwhile.
    @Test func aClientThatStopsReadingIsDroppedAtTheStreamsBound() throws {
        let server = try Self.server()
        defer { server.stop() }
        let flood = ExchangeWait(server.server, path: "/flood")
        let fd = RawHTTP.connectLoopback(port: server.port)
        defer { close(fd) }
        _ = Array("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        #expect(try Curl.run([server.url("/fast")]).stdout == "fast")
        #expect(flood.ended(seconds: 8) != nil, "the stalled reader was not dropped within 8 s")
        // Reading now: what was sent, then the end of the connection, far short of the whole body.
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            total += n
        }
        #expect(total < 300 * 16384, "received \(total) bytes")
    }

    @Test func aClientThatLeavesMidStreamEndsItsStreamAndTheServerServesOn() throws {
        let server = try Self.server()
        defer { server.stop() }
        let long = ExchangeWait(server.server, path: "/long")
        let fd = RawHTTP.connectLoopback(port: server.port)
        _ = Array("GET /long HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var got = ""
        while !got.contains("first") {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            got += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        #expect(got.contains("data: first"))
        close(fd)
        // The exchange completes when the client leaves, not 30 s later.
        #expect(long.ended(seconds: 5) != nil, "the abandoned stream was never journaled")
        #expect(try Curl.run([server.url("/fast")]).stdout == "fast")
    }

    /// URLSession as an app streams with it on Linux (swift-corelibs-foundation has no
    /// `bytes(for:)`): a data task whose delegate takes each piece as it arrives. Prints what it
    /// reports for each fault (docs/STREAMS.md's URLSession row).
    @Test func eachStreamFaultIsWhatURLSessionOnLinuxReports() throws {
        let server = try Self.server()
        defer { server.stop() }
        var row: [String] = []
        for path in ["/feed", "/reset", "/close", "/stall", "/end"] {
            // corelibs' timeoutIntervalForRequest bounds the whole transfer (libcurl's timeout): 0.3 s
            // for the stall (which holds 0.5 s), 5 s for the rest.
            let outcome = URLSessionStream.read(server.url(path), timeout: path == "/stall" ? 0.3 : 5)
            row.append("\(path): \(outcome.events) events, \(outcome.error.map { "error \($0)" } ?? "no error")")
            switch path {
            case "/feed", "/end": #expect(outcome.error == nil && outcome.events == (path == "/feed" ? 4 : 1), "\(path): \(outcome)")
            // The event before the stall usually arrives first; on a loaded machine the 0.3 s may
            // run out before it does. The timeout is the contract.
            case "/stall": #expect(outcome.error == NSURLErrorTimedOut && outcome.events <= 1, "\(path): \(outcome)")
            default: #expect(outcome.error != nil && outcome.events >= 1, "\(path): \(outcome)")
            }
        }
        print("URLSession (Linux, data task delegate): " + row.joined(separator: "; "))
    }
}

/// A streaming read with URLSession's delegate: events seen (`data:` lines) and the error code.
final class URLSessionStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let state = Mutex((text: "", error: Int?.none, done: false))
    private let finished = DispatchSemaphore(value: 0)

    static func read(_ url: String, timeout: Double) -> (events: Int, error: Int?) {
        let reader = URLSessionStream()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        session.dataTask(with: URL(string: url)!).resume()
        _ = reader.finished.wait(timeout: .now() + 10)
        session.invalidateAndCancel()
        return reader.state.withLock { state in
            (state.text.components(separatedBy: "\n").filter { $0.hasPrefix("data:") }.count, state.error)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.text += String(decoding: data, as: UTF8.self) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { $0.error = error.map { ($0 as NSError).code } }
        finished.signal()
    }
}
