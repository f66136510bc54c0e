import Testing
import StubModel
@testable import Recording
import StubdTestTags

/// What a recorded answer keeps, without a socket: form answers redacted, an undecodable body
/// left out with a note, JSON values replaced by kind.
@Suite(.tags(.inMemory)) struct RecordedResponseTests {
    @Test func aFormAnswerIsRedactedByName() {
        let answer = RecordedResponse(status: 200, headers: [NameValue("Content-Type", "application/x-www-form-urlencoded")],
                                      body: Array("access_token=gho_SECRET&scope=repo&token_type=bearer".utf8), redactor: Redactor())
        #expect(String(decoding: answer.body, as: UTF8.self) == "access_token=[redacted]&scope=repo&token_type=bearer")
        #expect(answer.redactedNames == ["access_token"])
    }

    @Test func anUndecodableBodyIsLeftOutAndSaysSo() {
        let answer = RecordedResponse(status: 200, headers: [NameValue("Content-Type", "application/json"), NameValue("Content-Encoding", "br")],
                                      body: Array("BROTLI{\"token\":\"x\"}".utf8), redactor: Redactor())
        #expect(answer.body.isEmpty && answer.storage == .none)
        #expect(!answer.headers.contains { $0.name == "Content-Encoding" })
        #expect(answer.headers.contains { $0.name == RecordedResponse.noteHeader })
        #expect(answer.problems.count == 1)
    }

    @Test func jsonValuesAreReplacedByKind() {
        let answer = RecordedResponse(status: 200, headers: [NameValue("Content-Type", "application/json")],
                                      body: Array(#"{"token":"t-123456","token_hint":"none","expires_in":60,"keys_url":"https://k"}"#.utf8),
                                      redactor: Redactor())
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"token":"[redacted]","token_hint":"none","expires_in":60,"keys_url":"https://k"}"#)
    }
}
