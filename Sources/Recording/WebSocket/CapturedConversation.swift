public import StubModel

/// A WebSocket conversation as the proxy relayed it: every message both ways with when it
/// passed, and how the upstream ended it. Plain values, handed to the recorder when the
/// conversation is over (`CapturedResponse.conversation`).
public struct CapturedConversation: Sendable {
    /// One message.
    public struct Message: Sendable, Equatable {
        /// Sent by the client (else by the upstream).
        public var fromClient: Bool
        /// Seconds from the `101`.
        public var at: Double
        /// What it carried.
        public var message: WebSocketMessage

        /// A message.
        public init(fromClient: Bool, at: Double, message: WebSocketMessage) {
            self.fromClient = fromClient
            self.at = at
            self.message = message
        }
    }

    /// How the upstream closed it with a close frame (nil: the client closed it, or the network).
    public struct UpstreamClose: Sendable, Equatable {
        /// The code.
        public var code: Int
        /// The reason.
        public var reason: String
        /// Seconds from the `101`.
        public var at: Double

        /// A close.
        public init(code: Int, reason: String, at: Double) {
            self.code = code
            self.reason = reason
            self.at = at
        }
    }

    /// Message bytes one conversation may keep for its recording; past them it is not recorded
    /// (counted as a problem), as an answer over the body limit is not.
    public static let byteLimit = 16 << 20

    /// The subprotocol the upstream chose.
    public var subprotocol: String?
    /// The messages, in the order they passed.
    public var messages: [Message] = []
    /// The upstream's close frame, if it sent one.
    public var upstreamClose: UpstreamClose?
    /// Bytes of the messages kept.
    public private(set) var bytes = 0
    /// Some messages were not kept (over `byteLimit`).
    public private(set) var incomplete = false

    /// An empty conversation.
    public init(subprotocol: String? = nil) { self.subprotocol = subprotocol }

    /// Keeps a message, unless the limit is reached.
    public mutating func append(_ message: Message) {
        guard !incomplete else { return }
        let size = message.message.bytes.count
        guard bytes + size <= Self.byteLimit else {
            incomplete = true
            return
        }
        bytes += size
        messages.append(message)
    }
}
