import Foundation
import StubModel
import Testing
@testable import Recording
import StubdTestTags

/// A relayed WebSocket conversation turned into a script without a socket (issue 37, item 6):
/// the upstream's first messages as `onOpen`, each client message's answers with their pauses, the
/// upstream's close, secrets out of messages and matches, repeats kept once, and the file the
/// recorder writes read back by the fixture reader's rules.
@Suite(.tags(.inMemory)) struct RecordedConversationTests {
    static func message(_ fromClient: Bool, _ at: Double, _ text: String) -> CapturedConversation.Message {
        CapturedConversation.Message(fromClient: fromClient, at: at, message: .text(text))
    }

    static let conversation: CapturedConversation = {
        var conversation = CapturedConversation(subprotocol: "chat.v1")
        for item in [message(false, 0.01, #"{"type": "welcome"}"#),
                     message(true, 0.5, #"{"type":"auth","token":"T-12345"}"#),
                     message(false, 0.52, #"{"type":"authed","token":"T-12345"}"#),
                     message(true, 1.0, "ping"),
                     message(false, 1.3004, "pong"),
                     message(false, 1.8, "pong again"),
                     message(true, 2.0, "ping"),
                     message(false, 2.1, "other"),
                     message(true, 3.0, "echo T-12345 please")] {
            conversation.append(item)
        }
        conversation.upstreamClose = CapturedConversation.UpstreamClose(code: 4000, reason: "done", at: 3.25)
        return conversation
    }()

    @Test func theConversationBecomesAScriptWithItsPauses() {
        let recorded = RecordedConversation(Self.conversation, redactor: Redactor(enabled: true), secrets: SecretValues())
        let script = recorded.script
        #expect(script.subprotocols == ["chat.v1"])
        #expect(script.onOpen == [WebSocketStep(.send(.text(#"{"type": "welcome"}"#), template: false), delay: 0.01)])
        #expect(script.replies.count == 3)
        #expect(script.replies[0].match == .json(.object([("type", .string("auth"))])), "the token is not part of the match")
        #expect(script.replies[0].steps == [WebSocketStep(.send(.text(#"{"type":"authed","token":"[redacted]"}"#), template: false), delay: 0.02)])
        #expect(script.replies[1].match == .text(.equalTo("ping", caseInsensitive: false)))
        #expect(script.replies[1].steps == [WebSocketStep(.send(.text("pong"), template: false), delay: 0.3),
                                            WebSocketStep(.send(.text("pong again"), template: false), delay: 0.5)])
        #expect(recorded.repeatsWithOtherAnswers == 1, "the second ping got another answer; the first is kept")
        #expect(script.replies[2].match == .text(.matches("^echo .+ please$")), "a token in plain text matches any value")
        #expect(script.replies[2].steps == [WebSocketStep(.close(code: 4000, reason: "done"), delay: 0.25)])
        #expect(recorded.redactedNames == ["token"])
    }

    @Test func theRecorderWritesAWebSocketRouteWithoutTheToken() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-ws-\(UUID().uuidString)").path
        let recorder = try Recorder(upstream: "http://upstream", options: RecordingOptions(out: out))
        let request = CapturedRequest(method: "GET", target: "/chat?room=blue", headers: [NameValue("Upgrade", "websocket")])
        recorder.record(request, .conversation(Self.conversation))
        var tooLong = CapturedConversation()
        tooLong.append(CapturedConversation.Message(fromClient: false, at: 0, message: .binary(Array(repeating: 0, count: CapturedConversation.byteLimit))))
        tooLong.append(Self.message(false, 1, "x"))
        recorder.record(CapturedRequest(method: "GET", target: "/big"), .conversation(tooLong))
        let summary = recorder.finish()
        #expect(summary.files == ["GET-chat.json"])
        #expect(summary.problems.contains { $0.contains("GET /big") && $0.contains("over 16 MiB") }, "\(summary.problems)")
        let written = (try? String(contentsOfFile: out + "/GET-chat.json", encoding: .utf8)) ?? ""
        #expect(written.contains(#""websocket""#) && written.contains(#""onOpen""#) && written.contains(#""code": 4000"#), "\(written)")
        #expect(!written.contains("T-12345"), "\(written)")
    }
}
