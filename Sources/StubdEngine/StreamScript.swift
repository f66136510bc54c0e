public import StubdHTTP

/// A reply written as timed pieces: the head at once, then each step's bytes after its pause,
/// then an ending — the body ended properly, or a failure inside it. A streamed stub (events
/// rendered for one request) and a dribbled body are both scripts; the engine plays one on a
/// single loop timer per reply (`ScriptPlayer`), never on a thread.
///
/// A class, immutable: a `ReplyContent` carries it as one reference, so plain replies' plans stay
/// as small to copy as before scripts existed.
public final class StreamScript: Sendable {
    /// One write: `bytes` sent `after` seconds after the previous step (or the head).
    public struct Step: Sendable, Equatable {
        /// Seconds after the previous step.
        public var after: Double
        /// What is written (one chunk of a chunked body; a piece of a framed one).
        public var bytes: [UInt8]

        /// Creates a step.
        public init(after: Double, bytes: [UInt8]) {
            self.after = after
            self.bytes = bytes
        }
    }

    /// How the reply ends once the steps are sent.
    public enum Ending: Sendable, Equatable {
        /// The body ends properly (the last chunk of a chunked body).
        case finish
        /// TCP reset (RST), after what was written has left.
        case reset
        /// The connection is closed (FIN) without ending the body.
        case close
        /// Nothing more is sent; the connection is closed (FIN, body not ended) after `seconds`,
        /// or at the server's hang cap when nil.
        case stall(seconds: Double?)
    }

    /// The status.
    public let status: Int
    /// The head's headers (a `Content-Length` among them frames the body by length instead of
    /// chunks, as a dribble does).
    public let headers: [NameValue]
    /// The writes, in order.
    public let steps: [Step]
    /// What happens after the last step.
    public let ending: Ending
    /// Seconds from the last step to the ending.
    public let endingAfter: Double
    /// Bytes the client may leave unread (in stubd, the connection's buffer and the kernel's
    /// unacknowledged bytes) before it is dropped as a slow reader.
    public let bufferLimit: Int

    /// Creates a script.
    public init(status: Int = 200, headers: [NameValue], steps: [Step], ending: Ending = .finish, endingAfter: Double = 0,
                bufferLimit: Int = 1 << 20) {
        self.status = status
        self.headers = headers
        self.steps = steps
        self.ending = ending
        self.endingAfter = endingAfter
        self.bufferLimit = bufferLimit
    }

    /// Every step's bytes, joined: the body a client that reads to the end receives.
    public var body: [UInt8] { steps.flatMap(\.bytes) }

    /// The body's first `limit` bytes, without joining the rest (what a journal keeps).
    public func bodyPrefix(_ limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        for step in steps where out.count < limit { out += step.bytes.prefix(limit - out.count) }
        return out
    }

    /// The body's length.
    public var bodySize: Int { steps.reduce(0) { $0 + $1.bytes.count } }

    /// Seconds from the head to the ending (a stall's hold not included).
    public var duration: Double { steps.reduce(0) { $0 + $1.after } + endingAfter }

    /// A body sent in `dribble.chunks` equal pieces, the last at `dribble.seconds`, framed by its
    /// `Content-Length` (WireMock's `chunkedDribbleDelay`).
    public static func dribble(_ reply: PreparedReply, _ dribble: Dribble) -> StreamScript {
        let body = reply.body
        let chunks = max(1, min(dribble.chunks, body.count))
        let interval = dribble.seconds / Double(chunks)
        let steps = (0..<chunks).map { index in
            Step(after: interval, bytes: Array(body[body.count * index / chunks ..< body.count * (index + 1) / chunks]))
        }
        return StreamScript(status: reply.status, headers: reply.headers + [NameValue("Content-Length", String(body.count))], steps: steps,
                            bufferLimit: max(body.count, 1))
    }
}
