public import Foundation
public import StubModel
import TargetModel

/// What a target answers for one session, in Moya's own terms: its `sampleData`, a status and
/// body, a network error, or any of those after a delay — so a UI test says
/// `session.stub(UserAPI.profile, .networkError(…))` as the app's unit tests say
/// `.networkError` to a stubbing `MoyaProvider`.
public struct StubResponse: Sendable {
    /// What is sent: nil for the target's own `sampleResponse`.
    let outcome: StubOutcome?
    /// Seconds before answering, timed by the server's event loop.
    let delay: Double?

    /// The target's own `sampleResponse` (its `sampleData` with status 200 by default), at once.
    public static let sample = StubResponse(outcome: nil, delay: nil)

    /// The target's `sampleResponse` after `seconds`: Moya's `.delayed(seconds:)`.
    public static func delayed(_ seconds: Double) -> StubResponse {
        StubResponse(outcome: nil, delay: seconds)
    }

    /// A status and body, as Moya's `.networkResponse(status, data)`.
    public static func response(_ status: Int, _ body: Data = Data(), headers: [String: String] = [:]) -> StubResponse {
        let sorted = headers.map { NameValue($0.key, $0.value) }.sorted { $0.name < $1.name }
        return StubResponse(outcome: .response(StubHTTPResponse(status: status, headers: sorted, body: [UInt8](body))), delay: nil)
    }

    /// A status and a UTF-8 text body.
    public static func response(_ status: Int, _ text: String, headers: [String: String] = [:]) -> StubResponse {
        response(status, Data(text.utf8), headers: headers)
    }

    /// A failure on the wire that the client reports as this error (stubd's fault table, e.g.
    /// `NSURLErrorTimedOut` holds the connection, `NSURLErrorNetworkConnectionLost` resets it).
    public static func networkError(_ error: NSError) -> StubResponse {
        StubResponse(outcome: StubOutcome(sample: .networkError(error)), delay: nil)
    }

    /// One of stubd's wire faults by name: `reset`, `empty`, `truncated`, `badChunk`, `garbage`, `hang`.
    public static func fault(_ fault: Fault) -> StubResponse {
        StubResponse(outcome: .fault(fault), delay: nil)
    }

    /// Events sent over time (SSE, NDJSON, chunked text) with their pacing and faults
    /// (docs/STREAMS.md): `.stream(StubStream(events: [.json(…)], pacing: StreamPacing(between: 0.1)))`.
    public static func stream(_ stream: StubStream) -> StubResponse {
        StubResponse(outcome: .stream(stream), delay: nil)
    }

    /// A language-model answer in its provider's envelope, streamed when the request asks:
    /// `.llm(LLMAnswer(provider: .openaiChat, text: "Hi!", tokensPerSecond: 40))`.
    public static func llm(_ answer: LLMAnswer) -> StubResponse {
        StubResponse(outcome: .llm(answer), delay: nil)
    }

    /// The same answer after `seconds`.
    public func delayed(by seconds: Double) -> StubResponse {
        StubResponse(outcome: outcome, delay: seconds)
    }
}

/// The earlier name of `StubResponse`.
@available(*, deprecated, renamed: "StubResponse")
public typealias StubAnswer = StubResponse
