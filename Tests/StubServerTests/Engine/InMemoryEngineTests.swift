import Foundation
import Synchronization
import Testing
import StubModel
import StubdEngine
import StubdTestTags

/// The in-memory engine against a handler of the test's own, without a server: it carries out
/// what `HTTPEngine` would — a reply now, a later completion from another thread (once), an
/// upstream call answered on its loop, a stream written after its head — and refuses what the
/// engine refuses before any handler runs.
@Suite(.tags(.inMemory)) struct InMemoryEngineTests {
    /// A handler deciding with `decide`, counting its calls.
    final class Handler: EngineHandler, @unchecked Sendable {
        let decide: @Sendable (IncomingRequest, ReplyHandle) -> HandlerDecision
        let calls = Mutex(0)
        init(_ decide: @escaping @Sendable (IncomingRequest, ReplyHandle) -> HandlerDecision) { self.decide = decide }
        func handle(_ request: IncomingRequest, reply: ReplyHandle) -> HandlerDecision {
            calls.withLock { $0 += 1 }
            return decide(request, reply)
        }
    }

    /// Hears when a reply is done.
    final class Listener: ReplyListener, @unchecked Sendable {
        let latencies = Mutex<[Double]>([])
        func replyFinished(latencySeconds: Double) { latencies.withLock { $0.append(latencySeconds) } }
    }

    static func started(_ handler: Handler, network: InMemoryNetwork = InMemoryNetwork()) throws -> (InMemoryNetwork, any Engine) {
        let engine = network.factory(EngineConfiguration(), handler)
        _ = try engine.start()
        return (network, engine)
    }

    static func text(_ status: Int, _ text: String) -> ReplyPlan {
        ReplyPlan(content: .response(PreparedReply(status: status, headers: [NameValue("Content-Type", "text/plain")], body: Array(text.utf8))))
    }

    @Test func aLaterCompletionFromAnotherThreadIsCarriedOutOnceWithItsDelay() throws {
        let listener = Listener()
        let bothCompleted = DispatchSemaphore(value: 0)
        let (network, engine) = try Self.started(Handler { _, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                var plan = Self.text(200, "later")
                plan.delay = 1.5
                reply.complete(plan, listener: listener)
                reply.complete(Self.text(500, "second"), listener: listener)
                bothCompleted.signal()
            }
            return .later
        })
        defer { engine.stop() }
        let reply = try #require(network.send(IncomingRequest(method: "GET", target: "/x")))
        #expect(reply.status == 200 && reply.text == "later" && reply.delay == 1.5)
        #expect(reply.header("Content-Length") == "5")
        #expect(bothCompleted.wait(timeout: .now() + 5) == .success)
        #expect(listener.latencies.withLock { $0 } == [1.5], "the second completion is ignored; latency is the virtual delay")
    }

    @Test func noCompletionIsNilAfterTheTimeoutAndAStoppedEngineAnswersNothing() throws {
        let (network, engine) = try Self.started(Handler { _, _ in .later })
        #expect(network.send(IncomingRequest(method: "GET", target: "/x"), timeout: 0.2) == nil)
        engine.stop()
        #expect(network.send(IncomingRequest(method: "GET", target: "/x")) == nil, "no server runs")
    }

    @Test func anUpstreamCallIsAnsweredByTheNetworkAndARelayComesWhole() throws {
        let network = InMemoryNetwork { request in
            .relayed(status: 200, headers: [NameValue("X-Up", request.target)], body: Array("whole".utf8), arrivals: [])
        }
        let (_, engine) = try Self.started(Handler { _, reply in
            reply.upstream.fetch(UpstreamRequest(host: "api.test", port: 80, method: "GET", target: "/up", headers: [], body: [])) { response in
                guard case .answered(let status, let headers, let body) = response else {
                    reply.complete(Self.text(599, "not answered whole"))
                    return
                }
                reply.complete(ReplyPlan(content: .response(PreparedReply(status: status, headers: headers, body: body))))
            }
            return .later
        }, network: network)
        defer { engine.stop() }
        let reply = try #require(network.send(IncomingRequest(method: "GET", target: "/x")))
        #expect(reply.status == 200 && reply.text == "whole" && reply.header("X-Up") == "/up")
        #expect(network.calls.count == 1 && network.calls.first?.kind == .fetch)
    }

    @Test func aStreamIsReadAsItIsWrittenAndEndsAsTheProducerSays() throws {
        let endings = Mutex<[ReplyStream.Ending]>([])
        let streams = Mutex<[ReplyStream]>([])
        let ended = DispatchSemaphore(value: 0)
        let (network, engine) = try Self.started(Handler { _, _ in
            let stream = ReplyStream(status: 200, headers: [NameValue("Content-Type", "text/event-stream")]) { ending in
                endings.withLock { $0.append(ending) }
                ended.signal()
            }
            stream.write(Array("data: one\n\n".utf8))
            streams.withLock { $0.append(stream) }
            return .reply(ReplyPlan(content: .stream(stream)))
        })
        defer { engine.stop() }
        let first = try #require(network.send(IncomingRequest(method: "GET", target: "/events")))
        let reader = try #require(first.stream)
        #expect(first.status == 200 && first.header("Content-Type") == "text/event-stream")
        #expect(reader.wait(for: "data: one"), "written before the head went")
        let producer = try #require(streams.withLock { $0.first })
        DispatchQueue.global().async {
            producer.write(Array("data: two\n\n".utf8))
            producer.finish()
        }
        #expect(reader.wait(for: "data: two"))
        #expect(ended.wait(timeout: .now() + 5) == .success, "the stream's end was told")
        #expect(endings.withLock { $0 } == [.finished])
        #expect(producer.write(Array("late".utf8)) == false, "a finished stream takes nothing more")
        let second = try #require(network.send(IncomingRequest(method: "GET", target: "/events")))
        second.stream?.close()
        #expect(endings.withLock { $0 } == [.finished, .clientLeft])
    }

    @Test func framingTheEngineRefusesNeverReachesTheHandler() throws {
        let handler = Handler { _, _ in .reply(Self.text(200, "ok")) }
        let (network, engine) = try Self.started(handler)
        defer { engine.stop() }
        let refused = try #require(network.send(IncomingRequest(method: "POST", target: "/x", headers: [NameValue("Transfer-Encoding", "xchunked")])))
        #expect(refused.status == 501 && refused.header("Connection") == "close")
        #expect(handler.calls.withLock { $0 } == 0)
        #expect(try #require(network.send(IncomingRequest(method: "GET", target: "/x"))).text == "ok")
        #expect(handler.calls.withLock { $0 } == 1)
    }
}
