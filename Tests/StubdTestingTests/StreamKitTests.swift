import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FixtureFiles
import StubModel
import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// An app's streaming endpoints as targets: a live feed and a chat completion declare a
/// `sampleStream`; compiled in, stubbed through the kit, or exported to JSON, the app reads the
/// same bytes.
enum StreamAPI: TargetType {
    case live(team: String)
    case chat(prompt: String)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .live(let team): return "scores/\(team)/live"
        case .chat: return "v1/chat/completions"
        }
    }
    var method: TargetModel.Method {
        if case .chat = self { return .post }
        return .get
    }
    var task: TargetModel.Task {
        switch self {
        case .live: return .requestPlain
        case .chat(let prompt):
            return .requestParameters(parameters: ["model": "gpt-test", "stream": true, "messages": [["role": "user", "content": prompt]]],
                                      encoding: JSONEncoding.default)
        }
    }
    var headers: [String: String]? { nil }
    var sampleStream: SampleStream? {
        switch self {
        case .live:
            return .events(StubStream(events: [StreamEvent(data: .json(.object([("home", .number(1))])), event: "score", id: "1"),
                                               StreamEvent(data: .text("full time"), event: "final")],
                                      pacing: StreamPacing(between: 0.05)))
        case .chat:
            return .llm(LLMAnswer(provider: .openaiChat, text: "Bonjour à tous", tokensPerSecond: 200))
        }
    }
}

@Suite(.tags(.socket)) struct StreamKitTests {
    @Test func aTargetsStreamIsExportedAndReadBackEqual() throws {
        let fixtures = try [StreamAPI.live(team: "lions"), StreamAPI.chat(prompt: "hi")].compactMap { target throws in try Fixture(target: target) }
        guard case .stream = fixtures[0].outcome, case .llm = fixtures[1].outcome else {
            Issue.record("outcomes: \(fixtures.map(\.outcome))")
            return
        }
        let text = FixtureWriter.text(for: fixtures)
        #expect(text.contains(#""stream""#) && text.contains(#""llm""#) && text.contains(#""openai-chat""#), "\(text)")
        let again = try FixtureReader(file: "export.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(text.utf8))
        #expect(again == fixtures, "exported: \(text)")
    }

    /// The same targets compiled into a server and stubbed into a session of an empty one:
    /// the app gets the same status, Content-Type and event bytes (ids aside, which are random
    /// per answer).
    @Test func aStreamStubbedThroughTheKitAnswersAsTheSameTargetCompiledIn() async throws {
        let targets: [any TargetType] = [StreamAPI.live(team: "lions"), StreamAPI.chat(prompt: "hi")]
        let compiledIn = try KitServer(targets: targets)
        let empty = try KitServer()
        defer { compiledIn.stop(); empty.stop() }
        let session = try await Stubd.session(baseURL: empty.url)
        for target in targets { try await session.stub(target) }
        func withoutIDs(_ seen: AppClient.Seen) -> AppClient.Seen {
            var seen = seen
            seen.body = seen.body.replacingOccurrences(of: #"chatcmpl-[0-9a-f]+"#, with: "chatcmpl-ID", options: .regularExpression)
                .replacingOccurrences(of: #""created":\d+"#, with: "\"created\":0", options: .regularExpression)
            return seen
        }
        for target in targets {
            let expected = try await AppClient.send(target, stubd: compiledIn.url, session: nil)
            let viaKit = try await AppClient.send(target, stubd: empty.url, session: session.id)
            #expect(expected.status == 200 && expected.contentType == "text/event-stream; charset=utf-8", "\(expected)")
            #expect(withoutIDs(viaKit) == withoutIDs(expected), "\(target)")
            #expect(try await session.count(target) == 1)
        }
        let chat = try await AppClient.send(StreamAPI.chat(prompt: "hi"), stubd: empty.url, session: session.id)
        #expect(chat.body.contains(#""content":" tous""#) && chat.body.hasSuffix("data: [DONE]\n\n"), "\(chat.body)")
    }

    @Test func theKitStubsAnyTargetWithAStream() async throws {
        let stubd = try KitServer()
        defer { stubd.stop() }
        let session = try await Stubd.session(baseURL: stubd.url)
        try await session.stub(UserAPI.profile, .stream(StubStream(format: .ndjson, events: [StreamEvent(data: .json(.number(1))),
                                                                                             StreamEvent(data: .json(.number(2)))],
                                                                   fault: StreamFault(.end, after: 1))))
        let seen = try await AppClient.send(UserAPI.profile, stubd: stubd.url, session: session.id)
        #expect(seen.status == 200 && seen.contentType == "application/x-ndjson" && seen.body == "1\n", "\(seen)")
        try await session.stub(UserAPI.login(user: "a", password: "b"), .llm(LLMAnswer(provider: .anthropic, text: "ok")))
        let login = try await AppClient.send(UserAPI.login(user: "a", password: "b"), stubd: stubd.url, session: session.id)
        // The login request does not ask to stream: the whole message comes as JSON.
        #expect(login.contentType == "application/json" && login.body.contains(#""type":"message""#), "\(login)")
    }
}
