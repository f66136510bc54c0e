package import Recording
package import StubModel
package import StubdEngine

/// Where a conversation's record goes when it ends: the serving core's exchange conforms, so a
/// WebSocket (played or relayed) hands its transcript to the journal, the recorder and the
/// observers without naming the exchange.
package protocol ConversationSink: AnyObject, Sendable {
    /// The upgrade request that opened the conversation.
    var request: IncomingRequest { get }
    /// Its session (nil: the shared one).
    var session: SessionID? { get }
    /// Keeps the conversation's transcript (a JSON document) as the exchange's answer.
    func recordConversation(_ transcript: [UInt8])
    /// Hands a relayed conversation to the recorder.
    func recorded(by recorder: Recorder, conversation: CapturedConversation)
    /// The conversation is over: the observers hear of it.
    func replyFinished(latencySeconds: Double)
}
