import Recording
import StubModel
import StubdEngine

/// A forwarded WebSocket: the client's conversation (`WebSocketPeer`) and the upstream's
/// (`UpstreamWebSocketPeer`) joined — each message passed on as it comes, each close passed on
/// with its code, an upstream that vanishes seen by the client as a connection that ends without
/// a close frame. The journal keeps it as one exchange (`WebSocketTranscript`); when recording,
/// every message is kept whole with its time and the recorder gets the conversation when the
/// client's side ends (the exchange's record carries it to `RecordingObserver`).
///
/// Both sides live on the loop of the client's request, so every call comes on that thread.
final class WebSocketRelay: WebSocketPeer, UpstreamWebSocketPeer, @unchecked Sendable {
    /// Bytes one message may take either way.
    static let messageLimit = 16 << 20

    private let upstream: UpstreamWebSocket
    private let exchange: Exchange
    private let recorder: Recorder?
    private let transcript: WebSocketTranscript
    private var client: WebSocketConnection?
    private var conversation: CapturedConversation
    private var clientEnded = false

    init(upstream: UpstreamWebSocket, subprotocol: String?, exchange: Exchange, recorder: Recorder?, redactor: Redactor) {
        self.upstream = upstream
        self.exchange = exchange
        self.recorder = recorder
        self.transcript = WebSocketTranscript(redactor: redactor)
        self.conversation = CapturedConversation(subprotocol: subprotocol)
    }

    /// The client never took the conversation (it left before its `101`): the upstream's goes too.
    deinit { upstream.abandon() }

    // MARK: The client's side

    func opened(_ connection: WebSocketConnection) {
        client = connection
        upstream.attach(self)
    }

    func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        keep(message, fromClient: true)
        upstream.send(message)
    }

    func ended(code: Int?, reason: String, by: WebSocketEnding) {
        guard !clientEnded else { return }
        clientEnded = true
        client = nil
        switch by {
        // The client's close (its code, or 1000) goes on to the upstream.
        case .client: upstream.close(code: code.map { [1005, 1006, 1015].contains($0) ? 1000 : $0 } ?? 1000, reason: reason)
        case .network: upstream.close(code: 1001, reason: "the client went away")
        case .serverStopped: upstream.close(code: 1001, reason: "stubd stopped")
        // Closed for the upstream (its close passed on): nothing left to tell it.
        case .server: break
        }
        exchange.recordConversation(transcript.document(code: code, reason: reason, by: by))
        if let recorder { exchange.recorded(by: recorder, conversation: conversation) }
        exchange.replyFinished(latencySeconds: transcript.elapsed)
    }

    // MARK: The upstream's side

    func upstreamSent(_ message: WebSocketMessage) {
        keep(message, fromClient: false)
        client?.send(message)
    }

    func upstreamEnded(code: Int?, reason: String, by: WebSocketEnding) {
        guard let client else { return }
        switch by {
        case .server:
            conversation.upstreamClose = CapturedConversation.UpstreamClose(code: code ?? 1000, reason: reason, at: transcript.elapsed)
            client.close(code: code.map { [1005, 1006, 1015].contains($0) ? 1000 : $0 } ?? 1000, reason: reason)
        case .network, .serverStopped:
            // The upstream vanished: so does the connection, as a client of the upstream would see.
            client.fault(.abrupt)
        case .client:
            break
        }
    }

    private func keep(_ message: WebSocketMessage, fromClient: Bool) {
        transcript.note(message, from: fromClient ? "client" : "server")
        if recorder != nil {
            conversation.append(CapturedConversation.Message(fromClient: fromClient, at: transcript.elapsed, message: message))
        }
    }
}
