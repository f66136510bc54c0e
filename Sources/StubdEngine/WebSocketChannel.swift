import CLibevent
import StubdHTTP
import StubdSystem

/// What a `WebSocketChannel` asks of the end it serves: the server side (`WebSocketConnection`)
/// or the client side (`UpstreamWebSocket`). Every call comes on the loop's thread.
protocol WebSocketChannelOwner: AnyObject {
    /// Bytes arrived, already taken from the connection (the owner reads them as a handshake or
    /// hands them to `WebSocketChannel.readFrames`).
    func channelRead(_ bytes: [UInt8])
    /// A whole message from the other side.
    func channelReceived(_ message: WebSocketMessage)
    /// The other side broke the protocol (the channel sends the close frame `code`): how the
    /// conversation's end reads.
    func channelBroken(code: Int, reason: String) -> (reason: String, by: WebSocketEnding)
    /// The connection reported an event (end of file, an error, a timeout, connected).
    func channelEvent(_ events: Int16)
    /// The conversation ends now (`reset`: the connection goes without a goodbye, where the
    /// owner can do that); the owner frees the connection and calls `release`.
    func channelEnd(code: Int?, reason: String, by: WebSocketEnding, reset: Bool)
}

/// The part of a WebSocket conversation both ends share — the bufferevent and its callbacks,
/// the frame reader, frames out (masked from a client, §5.3) with the output bound, the closing
/// handshake and its timer, ending once what is queued is written, and timers for scripts — so
/// the server side and the upstream side are one protocol engine with two owners.
///
/// Loop-confined. The owner holds the channel; the channel reaches its owner weakly.
final class WebSocketChannel {
    /// Bytes queued for a side that has not read them past which it is dropped (a reader that
    /// stopped reading must not grow memory).
    static let outputLimit = 8 << 20

    let bev: OpaquePointer
    unowned let worker: Worker
    weak var owner: (any WebSocketChannelOwner)?
    private var reader: WebSocketFrameReader
    /// Who this end is when it ends the conversation (`.server` for stubd's own WebSocket routes,
    /// `.client` towards an upstream), and who the other side is.
    private let own: WebSocketEnding, other: WebSocketEnding
    /// "the client" or "the upstream", for the output bound's reason.
    private let otherName: String
    /// Frames out are masked (a client's, §5.3).
    private let masks: Bool
    /// Pings are answered (a `stopPongs` fault turns this off).
    var answersPings = true
    /// A close frame went out; the conversation ends when the other side answers (or the timer).
    private(set) var closing: (code: Int, reason: String)?
    /// The conversation ends once the output is written (a close answered, a protocol failure, a
    /// script's `drop` or `abrupt` — `reset` for a drop).
    private(set) var endingAfterWrite: (code: Int?, reason: String, by: WebSocketEnding, reset: Bool)?
    private var closeTimer: OpaquePointer?
    /// Scripts' timers and their work, until they fire.
    private var scheduled: [OpaquePointer: () -> Void] = [:]
    /// Set by `release`: nothing more is read, written or run.
    private(set) var released = false

    init(bev: OpaquePointer, worker: Worker, messageLimit: Int, serverSide: Bool) {
        self.bev = bev
        self.worker = worker
        self.reader = WebSocketFrameReader(messageLimit: messageLimit, fromServer: !serverSide)
        (own, other) = serverSide ? (.server, .client) : (.client, .server)
        otherName = serverSide ? "the client" : "the upstream"
        masks = !serverSide
    }

    /// Routes the bufferevent's callbacks to this channel (and so to `owner`).
    func attach(_ owner: any WebSocketChannelOwner) {
        self.owner = owner
        bufferevent_setcb(bev, onChannelRead, onChannelWrite, onChannelEvent, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Bytes buffered on the connection, taken.
    func readAvailable() {
        let input = bufferevent_get_input(bev)
        let count = evbuffer_get_length(input)
        guard count > 0, !released else { return }
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, count) }
        owner?.channelRead(bytes)
    }

    /// Reads `bytes` as frames: messages to the owner, pings answered, the closing handshake.
    func readFrames(_ bytes: [UInt8]) {
        for event in reader.read(bytes) {
            guard !released, let owner else { return }
            switch event {
            case .message(let message):
                if closing == nil { owner.channelReceived(message) }
            case .ping(let payload):
                if answersPings { write(WebSocketFrame.pong(payload)) }
            case .pong:
                break
            case .close(let code, let reason):
                if let closing {
                    // The answer to ours: done.
                    owner.channelEnd(code: closing.code, reason: closing.reason, by: own, reset: false)
                } else {
                    // Echo its code (1000 when it gave none), then end once that is written.
                    write(WebSocketFrame.close(code: WebSocketFrame.sendableCloseCode(code), reason: ""))
                    finishAfterWrite(code: code, reason: reason, by: other)
                }
                return
            case .failure(let code, let reason):
                write(WebSocketFrame.close(code: code, reason: reason))
                let ending = owner.channelBroken(code: code, reason: reason)
                finishAfterWrite(code: code, reason: ending.reason, by: ending.by)
                return
            }
        }
    }

    /// Queues a frame (masked when this end is a client); over the output bound the conversation
    /// ends with a reset instead.
    func write(_ frame: [UInt8]) {
        guard !released else { return }
        if pendingOutput + frame.count > Self.outputLimit {
            owner?.channelEnd(code: nil, reason: "\(otherName) stopped reading: over \(Self.outputLimit >> 20) MiB waited to be sent", by: .network, reset: true)
            return
        }
        let bytes = masks ? WebSocketFrame.masked(frame, with: (0..<4).map { _ in UInt8.random(in: 0...255) }) : frame
        _ = bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
    }

    /// Bytes still waiting to be sent.
    var pendingOutput: Int { evbuffer_get_length(bufferevent_get_output(bev)) }

    /// Ends the conversation once what is queued is written (now, when nothing is) — with a reset
    /// when asked — so everything sent before the end reaches the other side first; reads stop.
    /// A side that does not take what is queued within `seconds` gets the end anyway.
    func finishAfterWrite(code: Int?, reason: String, by: WebSocketEnding, reset: Bool = false, seconds: Double = 2) {
        endingAfterWrite = (code, reason, by, reset)
        bufferevent_disable(bev, Int16(EV_READ))
        if pendingOutput == 0 {
            owner?.channelEnd(code: code, reason: reason, by: by, reset: reset)
        } else if closeTimer == nil {
            armCloseTimer(seconds: seconds)
        }
    }

    /// A close frame (with `saying` as its reason, or `reason`), then the end when the other side
    /// answers or `seconds` pass.
    func startClosing(code: Int, reason: String, saying: String? = nil, seconds: Double = 2) {
        closing = (code, reason)
        write(WebSocketFrame.close(code: code, reason: saying ?? reason))
        armCloseTimer(seconds: seconds)
    }

    /// The conversation ends after `seconds` whatever the other side does.
    func armCloseTimer(seconds: Double) {
        closeTimer = clev_timer_new(worker.base, onChannelTimer, Unmanaged.passUnretained(self).toOpaque())
        if let closeTimer {
            var delay = System.timeValue(seconds: seconds)
            event_add(closeTimer, &delay)
        }
    }

    /// Runs `work` after `seconds` unless the conversation has ended by then.
    func schedule(after seconds: Double, _ work: @escaping () -> Void) {
        guard !released, let timer = clev_timer_new(worker.base, onChannelTimer, Unmanaged.passUnretained(self).toOpaque()) else { return }
        scheduled[timer] = work
        var delay = System.timeValue(seconds: seconds)
        event_base_update_cache_time(worker.base)
        event_add(timer, &delay)
    }

    fileprivate func drained() {
        if let ending = endingAfterWrite, pendingOutput == 0 {
            owner?.channelEnd(code: ending.code, reason: ending.reason, by: ending.by, reset: ending.reset)
        }
    }

    fileprivate func timerFired() {
        // Every timer that is due: libevent calls one at a time; find those no longer pending.
        for timer in Array(scheduled.keys) where event_pending(timer, Int16(EV_TIMEOUT), nil) == 0 {
            let work = scheduled.removeValue(forKey: timer)
            event_free(timer)
            if !released { work?() }
        }
        if let closeTimer, event_pending(closeTimer, Int16(EV_TIMEOUT), nil) == 0, !released {
            if let ending = endingAfterWrite {
                owner?.channelEnd(code: ending.code, reason: ending.reason, by: ending.by, reset: ending.reset)
            } else {
                owner?.channelEnd(code: closing?.code, reason: closing?.reason ?? "", by: own, reset: false)
            }
        }
    }

    fileprivate func event(_ events: Int16) { owner?.channelEvent(events) }

    /// Timers freed and callbacks cleared; the owner frees the connection itself.
    func release() {
        guard !released else { return }
        released = true
        for timer in scheduled.keys { event_free(timer) }
        scheduled.removeAll()
        if let closeTimer { event_free(closeTimer) }
        closeTimer = nil
        bufferevent_setcb(bev, nil, nil, nil, nil)
    }
}

private func onChannelRead(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketChannel>.fromOpaque(arg).takeUnretainedValue().readAvailable()
}

private func onChannelWrite(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketChannel>.fromOpaque(arg).takeUnretainedValue().drained()
}

private func onChannelEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketChannel>.fromOpaque(arg).takeUnretainedValue().event(events)
}

private func onChannelTimer(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketChannel>.fromOpaque(arg).takeUnretainedValue().timerFired()
}
