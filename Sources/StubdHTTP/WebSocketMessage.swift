/// A message both ways: text (UTF-8) or binary.
public enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])

    /// How many bytes it carries (without copying them).
    public var byteCount: Int {
        switch self {
        case .text(let text): return text.utf8.count
        case .binary(let bytes): return bytes.count
        }
    }

    /// The bytes it carries.
    public var bytes: [UInt8] {
        switch self {
        case .text(let text): return Array(text.utf8)
        case .binary(let bytes): return bytes
        }
    }
}
