/// When a piece of a streamed body arrived: `seconds` after the head, with the body `end` bytes
/// long once it had (the recorder keeps one per piece read from an upstream).
public struct StreamArrival: Sendable, Equatable {
    /// Seconds from the head.
    public var seconds: Double
    /// The body's length once this piece had arrived.
    public var end: Int

    /// An arrival.
    public init(seconds: Double, end: Int) {
        self.seconds = seconds
        self.end = end
    }
}
