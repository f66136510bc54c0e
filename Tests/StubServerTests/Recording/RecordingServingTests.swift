import Foundation
import Synchronization
import Testing
import StubdTestSupport
import FixtureFiles
import StubModel
import StubServer
import StubdEngine
import Recording
import StubdTestTags
import StubdRuntime

/// Recording on a stubd served in memory: the in-memory upstream answers, the recorder writes
/// real files, and the folder is served again in memory — secrets scrubbed wherever they appear,
/// a name kept as sent, repeats kept first or as a sequence, hand-written files kept, and an
/// unanswered request a 502 that writes nothing. (Real upstreams, codings and relays over
/// sockets: `RecordingEndToEndTests`.)
@Suite(.tags(.inMemory)) struct RecordingServingTests {
    /// One request: method, target, headers, body.
    struct Sent {
        var method = "GET"
        let target: String
        var headers: [(String, String)] = []
        var body = ""
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Records `requests` answered by `upstream` into `options.out`.
    static func record(_ requests: [Sent], upstream: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse,
                       options: RecordingOptions) throws -> (RecordingSummary, [InMemoryReply]) {
        let proxy = try ProxyUpstream(url: "http://api.example.test")
        let recorder = try Recorder(upstream: proxy.description, options: options)
        let stubd = try InMemoryStubd(#"{"routes": []}"#, upstream: upstream, settings: {
            $0.proxy = proxy
            $0.recorder = recorder
        })
        let replies = try requests.map { try #require(stubd.send($0.method, $0.target, headers: $0.headers, body: $0.body)) }
        stubd.stop()
        return (recorder.finish(), replies)
    }

    /// Serves what was recorded into `out` and answers `requests`.
    static func replay(_ requests: [Sent], from out: String) throws -> [InMemoryReply] {
        let stubd = try InMemoryStubd(fixtures: try FixtureLoader.load(paths: [out]))
        defer { stubd.stop() }
        return try requests.map { try #require(stubd.send($0.method, $0.target, headers: $0.headers, body: $0.body)) }
    }

    static func allBytes(under folder: String) throws -> Data {
        var all = Data()
        for case let file as String in FileManager.default.enumerator(atPath: folder)! {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isDirectory)
            if !isDirectory.boolValue { all += try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)) }
        }
        return all
    }

    static func answer(_ status: Int, _ body: String, _ type: String = "text/plain", extra: [NameValue] = []) -> UpstreamResponse {
        .answered(status: status, headers: [NameValue("Content-Type", type)] + extra, body: Array(body.utf8))
    }

    @Test func aSecretValueIsScrubbedWhereverItAppears() throws {
        let out = try Self.folder()
        let (_, answers) = try Self.record([
            Sent(target: "/sessions/SESSION-VALUE-77/items", headers: [("Cookie", "sid=SESSION-VALUE-77; theme=dark")]),
            Sent(target: "/collect?utmcc=__utma%3D1.SESSION-VALUE-77&v=1", headers: [("Cookie", "sid=SESSION-VALUE-77")]),
        ], upstream: { request in
            Self.answer(200, #"{"path":"\#(request.target)","next":"/sessions/SESSION-VALUE-77/items?page=2"}"#, "application/json",
                        extra: [NameValue("X-Echo", "sid SESSION-VALUE-77")])
        }, options: RecordingOptions(out: out))
        #expect(answers[0].text.contains("SESSION-VALUE-77"), "the client gets the upstream's answer unchanged")
        let written = try Self.allBytes(under: out)
        #expect(written.count > 200)
        #expect(written.range(of: Data("SESSION-VALUE-77".utf8)) == nil, "the session value was written: \(String(decoding: written, as: UTF8.self))")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!names.contains { $0.contains("SESSION") }, "\(names)")
        let replayed = try Self.replay([
            Sent(target: "/sessions/ANOTHER-SESSION-1/items"),
            Sent(target: "/collect?utmcc=__utma%3D1.ANOTHER&v=1"),
            Sent(target: "/collect?utmcc=x&v=2"),
        ], from: out)
        #expect(replayed[0].status == 200 && replayed[0].text.contains("[redacted]"), "\(replayed[0].text)")
        #expect(replayed[1].status == 200, "\(replayed[1].text)")
        #expect(replayed[2].status == 404, "a value that is not secret still has to match")
    }

    @Test func keepWritesOneNameAsSent() throws {
        let out = try Self.folder()
        let (summary, _) = try Self.record([Sent(method: "POST", target: "/login")], upstream: { _ in
            Self.answer(200, #"{"token":"TOKEN-SECRET-2","user":"u"}"#, "application/json")
        }, options: RecordingOptions(out: out, keep: ["token"]))
        #expect(try Self.allBytes(under: out).range(of: Data("TOKEN-SECRET-2".utf8)) != nil)
        #expect(summary.redactedNames.isEmpty)
    }

    @Test(arguments: [false, true])
    func repeatedRequestsKeepTheFirstAnswerOrBecomeASequence(sequences: Bool) throws {
        let out = try Self.folder()
        let count = Mutex(0)
        let (summary, _) = try Self.record(Array(repeating: Sent(target: "/counter"), count: 3), upstream: { _ in
            let n = count.withLock { value -> Int in
                value += 1
                return value
            }
            return Self.answer(200, #"{"n":\#(n)}"#, "application/json")
        }, options: RecordingOptions(out: out, sequences: sequences))
        #expect(summary.repeatsWithOtherAnswers == 1)
        #expect(summary.lines.contains { $0.contains(sequences ? "recorded as responses sequences" : "kept the first answer") })
        let replayed = try Self.replay(Array(repeating: Sent(target: "/counter"), count: 4), from: out).map(\.text)
        #expect(replayed == (sequences ? [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#, #"{"n":3}"#] : Array(repeating: #"{"n":1}"#, count: 4)))
    }

    /// A recording's parameters identify the call, and parameters the app adds on a later run
    /// (a cache-buster) do not make the replay miss; the route naming more parameters wins.
    @Test func aReplayIgnoresParametersTheRecordingDidNotSee() throws {
        let out = try Self.folder()
        let api: @Sendable (UpstreamRequest) -> UpstreamResponse = { request in
            Self.answer(200, request.target.contains("page=2") ? "page two" : "page one", "text/plain")
        }
        _ = try Self.record([Sent(target: "/items"), Sent(target: "/items?page=2")], upstream: api, options: RecordingOptions(out: out))
        let written = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }
            .map { try String(contentsOfFile: out + "/" + $0, encoding: .utf8) }
        #expect(written.count == 2 && written.allSatisfy { $0.contains(#""anyOtherQuery" : true"#) || $0.contains(#""anyOtherQuery": true"#) }, "\(written)")
        let replayed = try Self.replay([Sent(target: "/items?cb=17"), Sent(target: "/items?cb=18&page=2"), Sent(target: "/items?page=3")], from: out)
        #expect(replayed.map(\.text) == ["page one", "page two", "page one"])
    }

    @Test func aHandWrittenFileIsKeptUnlessOverwriteIsGiven() throws {
        let out = try Self.folder()
        let mine = #"{"request": {"method": "GET", "path": "/text"}, "response": {"status": 200, "text": "mine"}}"#
        try Data(mine.utf8).write(to: URL(fileURLWithPath: out + "/GET-text.json"))
        let api: @Sendable (UpstreamRequest) -> UpstreamResponse = { request in
            request.target == "/text" ? Self.answer(200, "hello text ✓", "text/plain; charset=utf-8") : Self.answer(500, "internal error")
        }
        let (kept, _) = try Self.record([Sent(target: "/text"), Sent(target: "/boom")], upstream: api, options: RecordingOptions(out: out))
        #expect(try String(contentsOfFile: out + "/GET-text.json", encoding: .utf8) == mine)
        #expect(kept.keptHandWritten == ["GET-text.json"])
        #expect(kept.files == ["GET-boom.json"])
        // A second recording refreshes its own earlier file in place, and --overwrite replaces mine.
        let (again, _) = try Self.record([Sent(target: "/text"), Sent(target: "/boom")], upstream: api, options: RecordingOptions(out: out, overwrite: true))
        #expect(again.files == ["GET-boom.json", "GET-text.json"])
        #expect(try Self.replay([Sent(target: "/text")], from: out)[0].text == "hello text ✓")
    }

    @Test func anUnansweredRequestIsA502AndWritesNothing() throws {
        let out = try Self.folder()
        let (summary, answers) = try Self.record([Sent(target: "/users/octocat")], upstream: { _ in .failed("connection refused") },
                                                 options: RecordingOptions(out: out))
        #expect(answers[0].status == 502)
        #expect(summary.upstreamFailures == 1 && summary.files.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }.isEmpty)
    }
}
