public import StubdHTTP
import Synchronization

/// A reply whose body is written later, piece by piece, from any thread: Server-Sent Events, a
/// streamed stub body, an upstream relayed as it arrives.
///
/// Hand it to the engine as a plan's answer (`ReplyPlan(content: .stream(stream))`): the head
/// (status, headers, no Content-Length, so HTTP/1.1 frames the body chunked) goes when the plan
/// is carried out, after its delay if it has one. Then `write` pieces and `finish` from any
/// thread; the pieces reach the request's loop through its mailbox, in order.
///
/// Bounded: the loop hands the connection one batch of pieces at a time and takes the next only
/// when the client has taken that one; meanwhile at most `bufferLimit` bytes wait here. A client
/// that stops reading lets them pile up, and a write past the bound drops it (`.slowReader`) —
/// the loop never waits for it and memory never grows past two batches. A client that leaves is
/// noticed when its connection closes (`.clientLeft`), not at the next write.
/// `onEnd` is called exactly once, on the loop's thread or the finishing thread; keep it short.
public final class ReplyStream: Sendable {
    /// Why a stream ended.
    public enum Ending: Sendable, Equatable {
        /// `finish()` was called and every piece was handed to the connection.
        case finished
        /// The client closed the connection (or it failed).
        case clientLeft
        /// The client read too slowly: more than `bufferLimit` bytes waited; it was disconnected.
        case slowReader
        /// The server stopped first.
        case serverStopped
    }

    /// The status sent in the head.
    public let status: Int
    /// The headers sent in the head (the plan's extra headers are added after them).
    public let headers: [NameValue]
    /// Bytes that may wait for the loop, and again in the connection's output buffer.
    public let bufferLimit: Int
    private let onEnd: @Sendable (Ending) -> Void
    private let onDrained: (@Sendable () -> Void)?
    private let state = Mutex(State())

    fileprivate struct State {
        var queued: [[UInt8]] = []
        var queuedBytes = 0
        var finishing = false
        var overflowed = false
        var ending: Ending?
        /// Set when the engine has sent the head; writes then wake this loop (or the in-memory
        /// engine's reader).
        var mailbox: (any StreamCarrier)?
        var flushPosted = false
    }

    /// A stream answering with `status` and `headers`; `onEnd` hears how it ended.
    ///
    /// `onDrained`, for a producer that can wait (an upstream relayed as it arrives): called on
    /// the request's loop whenever the client has taken everything written so far. Such a
    /// producer stops reading its source while `queuedBytes` is high and starts again here, so
    /// a slow client is served at its own pace instead of being dropped.
    public init(status: Int = 200, headers: [NameValue], bufferLimit: Int = 256 * 1024,
                onEnd: @escaping @Sendable (Ending) -> Void = { _ in }, onDrained: (@Sendable () -> Void)? = nil) {
        self.status = status
        self.headers = headers
        self.bufferLimit = max(1, bufferLimit)
        self.onEnd = onEnd
        self.onDrained = onDrained
    }

    /// Queues `bytes` for the client; false when the stream has ended, is finishing, or the
    /// client is too slow (the piece is not queued, and the client will be dropped).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return ending == nil }
        let (accepted, wake) = state.withLock { state -> (Bool, (any StreamCarrier)?) in
            guard state.ending == nil, !state.finishing, !state.overflowed else { return (false, nil) }
            if state.queuedBytes + bytes.count > bufferLimit {
                state.overflowed = true
                state.queued.removeAll()
                state.queuedBytes = 0
                // Always wake the loop: it may be waiting for the client to drain, and must drop it.
                return (false, state.mailbox)
            }
            state.queued.append(bytes)
            state.queuedBytes += bytes.count
            return (true, state.takeWake())
        }
        wake?.post(flush: self)
        return accepted
    }

    /// Disconnects the client now, as a slow reader (`.slowReader`): for a writer whose own
    /// queue overflowed before the bytes reached the stream.
    public func drop() {
        let wake = state.withLock { state -> (any StreamCarrier)? in
            guard state.ending == nil else { return nil }
            state.overflowed = true
            state.queued.removeAll()
            state.queuedBytes = 0
            return state.mailbox
        }
        wake?.post(flush: self)
    }

    /// Ends the body once the queued pieces are sent. Idempotent.
    public func finish() {
        let wake = state.withLock { state -> (any StreamCarrier)? in
            guard state.ending == nil, !state.finishing else { return nil }
            state.finishing = true
            return state.takeWake()
        }
        wake?.post(flush: self)
    }

    /// How it ended; nil while it runs.
    public var ending: Ending? { state.withLock { $0.ending } }

    /// Bytes written but not yet taken by the loop: a producer that paces itself writes the
    /// next piece when this is 0, so only a client that stops reading fills the buffer.
    public var queuedBytes: Int { state.withLock { $0.queuedBytes } }

    // MARK: - Engine side

    /// What the loop should do now.
    struct Work {
        var pieces: [[UInt8]]
        var finish: Bool
        var overflowed: Bool
    }

    /// The head has been sent on the loop owning `mailbox`: later writes wake it. Returns what
    /// queued up before.
    func attach(_ mailbox: any StreamCarrier) -> Work {
        state.withLock { state in
            state.mailbox = mailbox
            return state.takeWork()
        }
    }

    /// On the loop: whether a write went past the bound.
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// On the loop: the pieces queued since the last flush.
    func takeWork() -> Work {
        state.withLock { state in
            state.flushPosted = false
            return state.takeWork()
        }
    }

    /// On the loop: the client has taken every batch and nothing waits here.
    func drained() { onDrained?() }

    /// Whether the producer waits for the client (`onDrained`) rather than pushing: such a
    /// stream is never dropped for what waits in the kernel, only for its own queue.
    var isPaced: Bool { onDrained != nil }

    /// Records the ending and tells `onEnd`, once; later writes are refused.
    func end(_ ending: Ending) {
        let first = state.withLock { state -> Bool in
            guard state.ending == nil else { return false }
            state.ending = ending
            state.queued.removeAll()
            state.queuedBytes = 0
            state.mailbox = nil
            return true
        }
        if first { onEnd(ending) }
    }
}

extension ReplyStream.State {
    /// The mailbox to wake, once per batch of writes (nil before the head is sent).
    fileprivate mutating func takeWake() -> (any StreamCarrier)? {
        guard let mailbox, !flushPosted else { return nil }
        flushPosted = true
        return mailbox
    }

    fileprivate mutating func takeWork() -> ReplyStream.Work {
        defer {
            queued.removeAll()
            queuedBytes = 0
        }
        return ReplyStream.Work(pieces: queued, finish: finishing, overflowed: overflowed)
    }
}
