/// A target's streamed sample answer — what `sampleData` is for an ordinary call, for an endpoint
/// that streams (a live feed, a chat completion). Served, exported and stubbed through the test kit
/// like `sampleResponse`; Moya itself has no such member, so a target declares it where stubd
/// compiles it (the targets package) and the app's API file is unchanged.
public enum SampleStream: Sendable, Equatable {
    /// Events sent over time (SSE, NDJSON or chunked text): `StubStream`.
    case events(StubStream)
    /// A language-model API's answer, streamed in its provider's envelope when the request asks.
    case llm(LLMAnswer)

    /// As a stub outcome.
    public var outcome: StubOutcome {
        switch self {
        case .events(let stream): return .stream(stream)
        case .llm(let answer): return .llm(answer)
        }
    }
}
