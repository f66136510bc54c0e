package import Recording
package import StubModel
package import StubdEngine
import Synchronization

/// A forwarded WebSocket: the client's conversation (`WebSocketPeer`) and the upstream's
/// (`UpstreamWebSocketPeer`) joined — each message passed on as it comes, each close passed on
/// with its code, an upstream that vanishes seen by the client as a connection that ends without
/// a close frame. The journal keeps it as one exchange (`WebSocketTranscript`); when recording,
/// every message is kept whole with its time and the recorder gets the conversation when the
/// client's side ends (the exchange's record carries it to `RecordingObserver`).
///
/// Both sides live on the loop of the client's request, so every call comes on that thread —
/// but a test's push or close (it is listed with the open conversations), from any thread.
package final class WebSocketRelay: WebSocketPeer, UpstreamWebSocketPeer, OpenWebSocket, @unchecked Sendable {
    /// Bytes one message may take either way.
    package static let messageLimit = 16 << 20

    private let upstream: UpstreamWebSocket
    private let exchange: any ConversationSink
    private let recorder: Recorder?
    package let transcript: WebSocketTranscript
    private let registry: WebSocketRegistry
    private let upstreamName: String
    private let clientSide = Mutex<(connection: WebSocketConnection?, id: Int?)>((nil, nil))
    private var client: WebSocketConnection? { clientSide.withLock { $0.connection } }
    private var conversation: CapturedConversation
    private var clientEnded = false

    package init(upstream: UpstreamWebSocket, named upstreamName: String, subprotocol: String?, exchange: any ConversationSink, recorder: Recorder?, redactor: Redactor,
         registry: WebSocketRegistry) {
        self.upstream = upstream
        self.upstreamName = upstreamName
        self.registry = registry
        self.exchange = exchange
        self.recorder = recorder
        self.transcript = WebSocketTranscript(redactor: redactor)
        self.conversation = CapturedConversation(subprotocol: subprotocol)
    }

    /// The client never took the conversation (it left before its `101`): the upstream's goes too.
    deinit { upstream.abandon() }

    // MARK: The client's side

    package func opened(_ connection: WebSocketConnection) {
        clientSide.withLock { $0.connection = connection }
        let id = registry.add(route: "proxied to \(upstreamName)", path: exchange.request.rawPath, session: exchange.session, conversation: self)
        clientSide.withLock { $0.id = id }
        upstream.attach(self)
    }

    package func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
        keep(message, fromClient: true)
        upstream.send(message)
    }

    package func ended(code: Int?, reason: String, by: WebSocketEnding) {
        guard !clientEnded else { return }
        clientEnded = true
        let id = clientSide.withLock { side in
            defer { side = (nil, nil) }
            return side.id
        }
        if let id { registry.remove(id) }
        switch by {
        // The client's close (its code, or 1000) goes on to the upstream.
        case .client: upstream.close(code: WebSocketFrame.sendableCloseCode(code), reason: reason)
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

    package func upstreamSent(_ message: WebSocketMessage) {
        keep(message, fromClient: false)
        client?.send(message)
    }

    package func upstreamEnded(code: Int?, reason: String, by: WebSocketEnding) {
        guard let client else { return }
        switch by {
        case .server:
            conversation.upstreamClose = CapturedConversation.UpstreamClose(code: code ?? 1000, reason: reason, at: transcript.elapsed)
            client.close(code: WebSocketFrame.sendableCloseCode(code), reason: reason)
        case .network, .serverStopped:
            // The upstream vanished: so does the connection, as a client of the upstream would see.
            client.fault(.abrupt)
        case .client:
            break
        }
    }

    // MARK: A test's hand (any thread)

    package func push(_ message: WebSocketMessage) {
        guard let client else { return }
        transcript.note(message, from: "server")
        client.send(message)
    }

    package func close(code: Int, reason: String) {
        client?.close(code: code, reason: reason)
    }

    private func keep(_ message: WebSocketMessage, fromClient: Bool) {
        transcript.note(message, from: fromClient ? "client" : "server")
        if recorder != nil {
            conversation.append(CapturedConversation.Message(fromClient: fromClient, at: transcript.elapsed, message: message))
        }
    }
}
