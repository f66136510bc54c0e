/// Failures with a meaning to clients, as the HTTP faults have.
public enum WebSocketFault: String, Sendable, Equatable, CaseIterable {
    /// The TCP connection reset, no close frame (clients report 1006, an abnormal closure).
    case drop
    /// The TCP connection closed without a close frame (FIN): 1006 as well, but no reset.
    case abrupt
    /// A frame no client may accept (a reserved opcode): the client fails the connection (1002).
    case invalidFrame = "invalid-frame"
    /// Pings are no longer answered (a client with a ping timeout gives up).
    case stopPongs = "stop-pongs"
}
