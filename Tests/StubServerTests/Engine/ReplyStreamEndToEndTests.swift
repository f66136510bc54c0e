import Dispatch
import Foundation
import StubModel
import StubdSystem
import Synchronization
import Testing
import StubdTestSupport
@testable import StubdEngine
import StubdTestTags

/// Streamed replies over real sockets: pieces written from another thread arrive in order; a
/// client that stops reading is dropped while another client is served; a client that leaves
/// is noticed when it closes, not at the next write; stopping the server ends open streams.
@Suite(.serialized, .tags(.process)) struct ReplyStreamEndToEndTests {
    /// `/count?n` streams n numbered lines from a global queue; `/flood` writes an 8 KiB piece
    /// every millisecond from a timer (a source with its own pace, as live events are) until the
    /// stream ends; `/hold` opens a stream and
    /// writes nothing; anything else is a plain `ok`.
    final class StreamingHandler: EngineHandler {
        let endings = Mutex<[String: ReplyStream.Ending]>([:])
        let ended = DispatchSemaphore(value: 0)
        let held = Mutex<[ReplyStream]>([])
        let delayedArrived = DispatchSemaphore(value: 0)

        func stream(_ name: String, bufferLimit: Int = 256 * 1024) -> ReplyStream {
            ReplyStream(status: 200, headers: [NameValue("Content-Type", "text/plain")], bufferLimit: bufferLimit) { [self] ending in
                endings.withLock { $0[name] = ending }
                ended.signal()
            }
        }

        func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
            switch request.rawPath {
            case "/count":
                // Pieces may be written before the engine has sent the head: they wait for it.
                let stream = stream("count")
                defer {
                    let count = Int(request.rawQuery ?? "") ?? 0
                    DispatchQueue.global().async {
                        for index in 1...count { stream.write(Array("line \(index)\n".utf8)) }
                        stream.finish()
                    }
                }
                return .reply(ReplyPlan(content: .stream(stream)))
            case "/flood", "/flood-roomy":
                let roomy = request.rawPath == "/flood-roomy"
                let stream = stream(roomy ? "roomy" : "flood", bufferLimit: roomy ? 1 << 20 : 64 * 1024)
                // A source with its own pace: a timer writes a piece every millisecond until the
                // stream ends (or 20 s pass).
                let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 8 * 1024)
                let deadline = Date().addingTimeInterval(20)
                let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "flood"))
                source.schedule(deadline: .now(), repeating: .milliseconds(1))
                source.setEventHandler {
                    if stream.ending != nil || Date() > deadline { source.cancel() } else { stream.write(piece) }
                }
                source.resume()
                return .reply(ReplyPlan(content: .stream(stream)))
            case "/hold":
                let stream = stream("hold")
                held.withLock { $0.append(stream) }
                return .reply(ReplyPlan(content: .stream(stream)))
            case "/delayed":
                // The head would go after 5 s; the client leaves first.
                defer { delayedArrived.signal() }
                return .reply(ReplyPlan(content: .stream(stream("delayed")), delay: 5))
            default:
                return .reply(ReplyPlan(content: .response(PreparedReply(status: 200, headers: [], body: Array("ok".utf8)))))
            }
        }
    }

    static func engine(_ handler: StreamingHandler) throws -> (HTTPEngine, Int) {
        var configuration = EngineConfiguration()
        configuration.port = 0
        configuration.workers = 1
        let engine = HTTPEngine(configuration: configuration, handler: handler)
        return (engine, try engine.start().http!)
    }

    /// Reads from `fd` until `marker` has arrived (or 5 s pass).
    static func read(_ fd: Int32, until marker: String) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(5)
        while !String(decoding: received, as: UTF8.self).contains(marker) && Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test func aThousandPiecesFromAnotherThreadArriveInOrderChunked() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        defer { engine.stop() }
        let result = try Curl.run(["-s", "-D", "-", "http://127.0.0.1:\(port)/count?1000"])
        let parts = result.stdout.components(separatedBy: "\r\n\r\n")
        #expect(parts[0].lowercased().contains("transfer-encoding: chunked"), "\(parts[0])")
        let expected = (1...1000).map { "line \($0)\n" }.joined()
        #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == expected)
        #expect(handler.ended.wait(timeout: .now() + 5) == .success)
        #expect(handler.endings.withLock { $0["count"] } == .finished)
        // The connection was kept alive and the loop serves on.
        #expect(try Curl.run(["http://127.0.0.1:\(port)/other"]).stdout == "ok")
    }

    @Test func aClientThatStopsReadingIsDroppedWhileAnotherIsServed() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        defer { engine.stop() }
        let stalled = RawHTTP.connectLoopback(port: port)
        defer { close(stalled) }
        System.sendAll(stalled, Array("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // Never read from `stalled`. Meanwhile another client's 100 requests on the one loop:
        let urls = (1...100).flatMap { ["-o", "/dev/null", "http://127.0.0.1:\(port)/other?\($0)"] }
        let served = try Curl.run(["-s", "-w", "%{http_code}\n"] + urls, maxTime: 20)
        #expect(served.stdout.split(separator: "\n").filter { $0 == "200" }.count == 100, "\(served.stdout)")
        #expect(handler.ended.wait(timeout: .now() + 20) == .success)
        #expect(handler.endings.withLock { $0["flood"] } == .slowReader)
        // Dropped means disconnected: once what was buffered is read, the socket reports the end.
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        let deadline = Date().addingTimeInterval(10)
        var last = 1
        while Date() < deadline {
            last = recv(stalled, &buffer, buffer.count, 0)
            if last <= 0 { break }
            total += last
        }
        #expect(last == 0 || (last < 0 && errno == ECONNRESET), "the connection was closed")
        #expect(total > 0, "the client was sent pieces before it was dropped")
    }

    @Test func aClientThatKeepsReadingIsNotDropped() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        defer { engine.stop() }
        let client = RawHTTP.connectLoopback(port: port)
        System.sendAll(client, Array("GET /flood-roomy HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        var buffer = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while total < 2 << 20 {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            total += n
        }
        #expect(total >= 2 << 20, "2 MiB read as they came")
        #expect(handler.endings.withLock { $0["roomy"] } == nil)
        close(client)
        #expect(handler.ended.wait(timeout: .now() + 5) == .success)
        #expect(handler.endings.withLock { $0["roomy"] } == .clientLeft)
    }

    @Test func aClientThatLeavesIsNoticedWhenItCloses() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        defer { engine.stop() }
        let client = RawHTTP.connectLoopback(port: port)
        System.sendAll(client, Array("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(Self.read(client, until: "\r\n\r\n").hasPrefix("HTTP/1.1 200"))
        close(client)
        // Nothing is written to the stream: the close itself is what the engine notices.
        #expect(handler.ended.wait(timeout: .now() + 2) == .success)
        #expect(handler.endings.withLock { $0["hold"] } == .clientLeft)
        #expect(handler.held.withLock { $0.first?.write(Array("late".utf8)) } == false)
    }

    @Test func aClientThatLeavesDuringTheDelayEndsTheStreamBeforeItsHead() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        defer { engine.stop() }
        let client = RawHTTP.connectLoopback(port: port)
        System.sendAll(client, Array("GET /delayed HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(handler.delayedArrived.wait(timeout: .now() + 5) == .success, "the request is parked on its delay")
        close(client)
        #expect(handler.ended.wait(timeout: .now() + 2) == .success)
        #expect(handler.endings.withLock { $0["delayed"] } == .clientLeft)
    }

    @Test func stoppingTheServerEndsOpenStreams() throws {
        let handler = StreamingHandler()
        let (engine, port) = try Self.engine(handler)
        let client = RawHTTP.connectLoopback(port: port)
        defer { close(client) }
        System.sendAll(client, Array("GET /hold HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(Self.read(client, until: "\r\n\r\n").hasPrefix("HTTP/1.1 200"))
        engine.stop()
        #expect(handler.endings.withLock { $0["hold"] } == .serverStopped)
        #expect(handler.held.withLock { $0.first?.write(Array("late".utf8)) } == false)
    }
}
