/// A body sent in `chunks` equal pieces, one every `seconds / chunks`, the last at `seconds`
/// (WireMock's `chunkedDribbleDelay`): headers go out at once, the body trickles.
public struct Dribble: Sendable, Hashable {
    /// How many pieces the body is cut into (at most one per byte).
    public var chunks: Int
    /// Time from the headers to the last piece.
    public var seconds: Double

    /// Creates a dribble.
    public init(chunks: Int, seconds: Double) {
        self.chunks = chunks
        self.seconds = seconds
    }
}
