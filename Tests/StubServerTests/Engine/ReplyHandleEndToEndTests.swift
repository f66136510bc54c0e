import Dispatch
import Synchronization
import Foundation
import StubModel
import Testing
import StubdTestSupport
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The engine seam over real sockets: a handler may complete a request at once, later from
/// another thread (the engine hops back to the request's loop), or never before the server
/// stops; completing twice is harmless.
@Suite(.serialized, .tags(.process)) struct ReplyHandleEndToEndTests {
    /// Answers `/later` from a global queue after 0.2 s, `/twice` twice (on the loop, before
    /// returning `.later`), `/never` not at all, `/answered` at once and then again through its
    /// handle, and everything else at once.
    final class LateHandler: EngineHandler {
        let parked = Mutex<[ReplyHandle]>([])

        func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
            switch request.rawPath {
            case "/later":
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { reply.complete(ReplyHandleEndToEndTests.text("from another thread")) }
                return .later
            case "/twice":
                reply.complete(ReplyHandleEndToEndTests.text("first"))
                reply.complete(ReplyHandleEndToEndTests.text("second"))
                return .later
            case "/answered":
                reply.complete(ReplyHandleEndToEndTests.text("second"))
                return .reply(ReplyHandleEndToEndTests.text("first"))
            case "/never":
                parked.withLock { $0.append(reply) }
                return .later
            default:
                return .reply(ReplyHandleEndToEndTests.text("now"))
            }
        }
    }

    static func text(_ body: String) -> ReplyPlan {
        ReplyPlan(content: .response(PreparedReply(status: 200, headers: [], body: Array(body.utf8))))
    }

    static func engine(_ handler: LateHandler) throws -> (HTTPEngine, Int) {
        var configuration = EngineConfiguration()
        configuration.port = 0
        let engine = HTTPEngine(configuration: configuration, handler: handler)
        return (engine, try engine.start().http!)
    }

    @Test func aCompletionFromAnotherThreadIsCarriedOutOnTheLoop() throws {
        let (engine, port) = try Self.engine(LateHandler())
        defer { engine.stop() }
        let result = try Curl.run(["-w", " %{time_total}", "http://127.0.0.1:\(port)/later"])
        let parts = result.stdout.split(separator: " ")
        #expect(parts.first == "from")
        #expect(result.stdout.hasPrefix("from another thread "))
        #expect((Double(parts.last ?? "") ?? 0) >= 0.2)
        #expect(try Curl.run(["http://127.0.0.1:\(port)/now"]).stdout == "now")
    }

    @Test func aSecondCompletionIsIgnored() throws {
        let (engine, port) = try Self.engine(LateHandler())
        defer { engine.stop() }
        let connection = RawHTTP.connectLoopback(port: port)
        defer { close(connection) }
        let first = RawHTTP.roundTrip(connection, "GET /twice HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(first.hasSuffix("\r\n\r\nfirst"))
        // The same keep-alive connection still answers the next request normally.
        #expect(RawHTTP.roundTrip(connection, "GET /now HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\nnow"))
        // A handler that returns an answer and also completes its handle: the answer it returned
        // goes, the completion is ignored, and the connection serves on.
        #expect(RawHTTP.roundTrip(connection, "GET /answered HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\nfirst"))
        #expect(RawHTTP.roundTrip(connection, "GET /now HTTP/1.1\r\nHost: x\r\n\r\n").hasSuffix("\r\n\r\nnow"))
    }

    @Test func aRequestNeverCompletedIsFreedAtStopAndALateCompletionIsDropped() throws {
        let handler = LateHandler()
        let (engine, port) = try Self.engine(handler)
        let connection = RawHTTP.connectLoopback(port: port)
        defer { close(connection) }
        _ = Array("GET /never HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        let deadline = Date().addingTimeInterval(5)
        while handler.parked.withLock({ $0.isEmpty }) && Date() < deadline {
            // The handler parks the request on the loop thread; wait for that event, bounded.
            _ = RawHTTP.exchange(port: port, bytes: Array("GET /now HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        }
        #expect(handler.parked.withLock { $0.count } == 1)
        engine.stop()
        handler.parked.withLock { $0.first }?.complete(ReplyPlan(content: .fault(.reset)))
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(recv(connection, &buffer, buffer.count, 0) <= 0)
    }
}
