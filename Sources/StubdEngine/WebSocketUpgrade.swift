public import StubdHTTP

/// An accepted WebSocket upgrade, as the serving layer hands it to the engine: the `101` head's
/// values and the peer that holds the conversation (`ReplyContent.upgrade`). A class: one
/// reference in `ReplyContent`, so every plan stays as small to copy as before WebSockets.
public final class WebSocketUpgrade: Sendable {
    /// `Sec-WebSocket-Accept`.
    public let accept: String
    /// The subprotocol chosen, if any.
    public let subprotocol: String?
    /// More head lines (CORS is not sent on a 101).
    public let extraHeaders: [NameValue]
    /// Bytes one client message may take.
    public let messageLimit: Int
    /// The conversation's other side.
    public let peer: any WebSocketPeer

    /// An upgrade.
    public init(accept: String, subprotocol: String?, extraHeaders: [NameValue] = [], messageLimit: Int, peer: any WebSocketPeer) {
        self.accept = accept
        self.subprotocol = subprotocol
        self.extraHeaders = extraHeaders
        self.messageLimit = messageLimit
        self.peer = peer
    }

    /// The `101 Switching Protocols` head's lines: the one list the engine sends, the in-memory
    /// engine hands a test, and the journal keeps.
    public var headers: [NameValue] {
        [NameValue("Upgrade", "websocket"), NameValue("Connection", "Upgrade"), NameValue("Sec-WebSocket-Accept", accept)]
            + (subprotocol.map { [NameValue("Sec-WebSocket-Protocol", $0)] } ?? []) + extraHeaders
    }

    /// The head as sent.
    var head: [UInt8] {
        let lines = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        return Array(("HTTP/1.1 101 Switching Protocols\r\n" + lines + "\r\n").utf8)
    }
}

/// Who ended a conversation.
public enum WebSocketEnding: String, Sendable {
    /// The client sent a close frame (answered with one).
    case client
    /// The server closed it (a script's close, a test's close).
    case server
    /// The connection went without a close frame (a client gone, a fault, a slow reader dropped).
    case network
    /// stubd stopped.
    case serverStopped = "server-stopped"
}

/// The serving layer's side of a conversation. Every call comes on the connection's loop thread.
public protocol WebSocketPeer: AnyObject, Sendable {
    /// The `101` is out; `connection` takes sends from any thread.
    func opened(_ connection: WebSocketConnection)
    /// A whole client message (fragments reassembled).
    func received(_ message: WebSocketMessage, on connection: WebSocketConnection)
    /// The conversation ended: the close code seen (from either side), its reason, and who ended it.
    func ended(code: Int?, reason: String, by: WebSocketEnding)
}
