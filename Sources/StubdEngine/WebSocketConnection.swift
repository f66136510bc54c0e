import CLibevent
import Dispatch
import StubModel
import StubdSystem
import Synchronization

/// A WebSocket conversation on a connection taken from evhttp after its upgrade request: the
/// bufferevent's callbacks become this object's (as `LibeventFaultInjector` takes a connection to
/// write a fault), the `101` and every frame are written to it directly, and client bytes are
/// read as frames (`WebSocketFrameReader`). evhttp keeps the connection's bookkeeping and frees it
/// — bufferevent, socket, the unanswered upgrade request — when this object says so, or when the
/// server stops. Works alike for HTTP and HTTPS (an OpenSSL bufferevent is still a bufferevent).
///
/// Loop-confined, except `send`, `close`, `fault`: callable from any thread, they hop onto the
/// loop through its mailbox. Owned by the loop's `InFlightRegistry` while open.
public final class WebSocketConnection: @unchecked Sendable {
    /// Bytes queued for a client that has not read them past which it is dropped (a reader that
    /// stopped reading must not grow memory).
    public static let outputLimit = 8 << 20

    private let connection: OpaquePointer
    private let bev: OpaquePointer
    private unowned let worker: Worker
    private let peer: any WebSocketPeer
    private var reader: WebSocketFrameReader
    private var open = true
    private var answersPings = true
    /// A close frame went out; the connection ends when the client's answers (or 2 s pass).
    private var closing: (code: Int, reason: String)?
    private var closeTimer: OpaquePointer?
    /// Scripts' timers and their work, until they fire.
    private var scheduled: [OpaquePointer: () -> Void] = [:]

    private init(connection: OpaquePointer, bev: OpaquePointer, worker: Worker, upgrade: WebSocketUpgrade) {
        self.connection = connection
        self.bev = bev
        self.worker = worker
        self.peer = upgrade.peer
        self.reader = WebSocketFrameReader(messageLimit: upgrade.messageLimit)
    }

    /// Takes `req`'s connection, sends the `101`, and starts the conversation.
    static func start(_ upgrade: WebSocketUpgrade, on req: OpaquePointer, worker: Worker) {
        guard let connection = evhttp_request_get_connection(req), let bev = evhttp_connection_get_bufferevent(connection) else {
            // evhttp let go of a request whose client left before its answer: it is ours to free.
            if evhttp_request_get_connection(req) == nil { evhttp_request_free(req) }
            upgrade.peer.ended(code: nil, reason: "the client left before the upgrade", by: .network)
            return
        }
        let socket = WebSocketConnection(connection: connection, bev: bev, worker: worker, upgrade: upgrade)
        worker.inFlight.hold(socket)
        worker.budget.hold(ObjectIdentifier(socket)) { [unowned socket] in socket.leaveForRoom() }
        let argument = Unmanaged.passUnretained(socket).toOpaque()
        bufferevent_setcb(bev, onSocketRead, onSocketWrite, onSocketEvent, argument)
        // A conversation may stay idle as long as the client keeps it: no evhttp timeouts.
        bufferevent_set_timeouts(bev, nil, nil)
        bufferevent_setwatermark(bev, Int16(EV_READ), 0, 0)
        socket.write(upgrade.head)
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
        socket.peer.opened(socket)
        // Bytes the client sent right behind its request (it should not, but may) are read now.
        if evbuffer_get_length(bufferevent_get_input(bev)) > 0 { socket.readAvailable() }
    }

    // MARK: From any thread

    /// Sends a message (dropped once the conversation is over).
    public func send(_ message: WebSocketMessage) {
        onLoop { $0.writeFrame(WebSocketFrame.message(message)) }
    }

    /// Closes cleanly: a close frame, then the connection once the client answers (2 s at most).
    public func close(code: Int, reason: String) {
        onLoop { $0.startClosing(code: code, reason: reason) }
    }

    /// Fails as the fault says (`WebSocketFault`).
    public func fault(_ fault: WebSocketFault) {
        onLoop { socket in
            switch fault {
            case .drop: socket.end(code: nil, reason: "dropped (a reset)", by: .server, reset: true)
            case .abrupt: socket.end(code: nil, reason: "closed without a close frame", by: .server, reset: false)
            case .invalidFrame: socket.write(WebSocketFrame.invalid)
            case .stopPongs: socket.answersPings = false
            }
        }
    }

    /// Runs `work` on the loop after `seconds` (for scripts), unless the conversation ended.
    public func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        guard seconds > 0 else { return onLoop { _ in work() } }
        onLoop { socket in
            guard socket.open, let timer = clev_timer_new(socket.worker.base, onSocketTimer, Unmanaged.passUnretained(socket).toOpaque()) else { return }
            socket.scheduled[timer] = work
            var delay = System.timeValue(seconds: seconds)
            event_base_update_cache_time(socket.worker.base)
            event_add(timer, &delay)
        }
    }

    private func onLoop(_ work: @escaping @Sendable (WebSocketConnection) -> Void) {
        if worker.mailbox.owner.isCurrent {
            guard open else { return }
            work(self)
        } else {
            worker.mailbox.post { [self] in
                guard open else { return }
                work(self)
            }
        }
    }

    // MARK: On the loop

    fileprivate func timerFired() {
        // Every timer that is due: libevent calls one at a time; find those no longer pending.
        for timer in Array(scheduled.keys) where event_pending(timer, Int16(EV_TIMEOUT), nil) == 0 {
            let work = scheduled.removeValue(forKey: timer)
            event_free(timer)
            if open { work?() }
        }
        if let closeTimer, event_pending(closeTimer, Int16(EV_TIMEOUT), nil) == 0, open {
            end(code: closing?.code, reason: closing?.reason ?? "", by: .server, reset: false)
        }
    }

    fileprivate func readAvailable() {
        let input = bufferevent_get_input(bev)
        let count = evbuffer_get_length(input)
        guard count > 0 else { return }
        worker.budget.heldActive(ObjectIdentifier(self))
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, count) }
        for event in reader.read(bytes) {
            guard open else { return }
            switch event {
            case .message(let message):
                if closing == nil { peer.received(message, on: self) }
            case .ping(let payload):
                if answersPings { write(WebSocketFrame.pong(payload)) }
            case .pong: break
            case .close(let code, let reason):
                if let closing {
                    // The client's answer to ours: done.
                    end(code: closing.code, reason: closing.reason, by: .server, reset: false)
                } else {
                    // Echo its code (1000 when it gave none), then close the connection once written.
                    let echoed = WebSocketFrame.sendableCloseCode(code)
                    write(WebSocketFrame.close(code: echoed, reason: ""))
                    finishAfterWrite(code: code, reason: reason, by: .client)
                }
                return
            case .failure(let code, let reason):
                write(WebSocketFrame.close(code: code, reason: reason))
                finishAfterWrite(code: code, reason: reason, by: .server)
                return
            }
        }
    }

    private var endingAfterWrite: (code: Int?, reason: String, by: WebSocketEnding)?

    private func finishAfterWrite(code: Int?, reason: String, by: WebSocketEnding) {
        endingAfterWrite = (code, reason, by)
        bufferevent_disable(bev, Int16(EV_READ))
        if evbuffer_get_length(bufferevent_get_output(bev)) == 0 { end(code: code, reason: reason, by: by, reset: false) }
    }

    fileprivate func drained() {
        if let ending = endingAfterWrite, evbuffer_get_length(bufferevent_get_output(bev)) == 0 {
            end(code: ending.code, reason: ending.reason, by: ending.by, reset: false)
        }
    }

    private func startClosing(code: Int, reason: String) {
        guard closing == nil, endingAfterWrite == nil else { return }
        closing = (code, reason)
        write(WebSocketFrame.close(code: code, reason: reason))
        armCloseTimer(seconds: 2)
    }

    /// The conversation ends after `seconds` whatever the client does (`timerFired`).
    private func armCloseTimer(seconds: Double) {
        closeTimer = clev_timer_new(worker.base, onSocketTimer, Unmanaged.passUnretained(self).toOpaque())
        if let closeTimer {
            var delay = System.timeValue(seconds: seconds)
            event_add(closeTimer, &delay)
        }
    }

    private func writeFrame(_ frame: [UInt8]) {
        guard closing == nil, endingAfterWrite == nil else { return }
        write(frame)
    }

    private func write(_ bytes: [UInt8]) {
        guard open else { return }
        if evbuffer_get_length(bufferevent_get_output(bev)) + bytes.count > Self.outputLimit {
            end(code: nil, reason: "the client stopped reading: over \(Self.outputLimit >> 20) MiB waited to be sent", by: .network, reset: true)
            return
        }
        _ = bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
    }

    fileprivate func networkEnded(_ events: Int16) {
        // A conversation has no idle timeout (docs/WEBSOCKETS.md): a read timeout evhttp left on
        // the connection fired after the client's first message, closing it without a close
        // frame. Cleared and reading again; only the client, a script, a test or the connection
        // budget (with 1001) ends a conversation.
        if events & Int16(BEV_EVENT_TIMEOUT) != 0, endingAfterWrite == nil, closing == nil {
            bufferevent_set_timeouts(bev, nil, nil)
            bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
            return
        }
        if let ending = endingAfterWrite {
            end(code: ending.code, reason: ending.reason, by: ending.by, reset: false)
        } else {
            end(code: 1006, reason: events & Int16(BEV_EVENT_EOF) != 0 ? "the client closed the connection without a close frame" : "the connection failed",
                by: .network, reset: false)
        }
    }

    /// The connection budget needs this connection for another client (`ConnectionBudget`): a
    /// close frame 1001 (going away), and the connection freed once it is written, or after a
    /// second if it cannot leave — at once, with a reset, when the client has stopped reading and
    /// the frame could not reach it.
    fileprivate func leaveForRoom() {
        guard open else { return }
        let reason = "stubd needed the connection for another client (at its connection cap)"
        guard closing == nil, endingAfterWrite == nil, evbuffer_get_length(bufferevent_get_output(bev)) < Self.roomFrameSlack else {
            return end(code: nil, reason: reason, by: .server, reset: true)
        }
        write(WebSocketFrame.close(code: 1001, reason: "going away: server at its connection cap"))
        closing = (1001, reason)
        armCloseTimer(seconds: 1)
        finishAfterWrite(code: 1001, reason: reason, by: .server)
    }

    /// Bytes still waiting to be sent under which a conversation made to give way gets its close frame.
    private static let roomFrameSlack = 64 << 10

    /// Ends the conversation and frees the connection (with a reset when asked).
    private func end(code: Int?, reason: String, by: WebSocketEnding, reset: Bool) {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        release()
        worker.inFlight.letGo(self)
        bufferevent_setcb(bev, nil, nil, nil, nil)
        if reset { LibeventFaultInjector.reset(connection) } else { evhttp_connection_free(connection) }
        peer.ended(code: code, reason: reason, by: by)
    }

    private func release() {
        for timer in scheduled.keys { event_free(timer) }
        scheduled.removeAll()
        if let closeTimer { event_free(closeTimer) }
        closeTimer = nil
    }

    /// The server stops: evhttp frees the connection with the others; only the peer hears.
    func serverStopped() {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        release()
        bufferevent_setcb(bev, nil, nil, nil, nil)
        peer.ended(code: 1001, reason: "stubd stopped", by: .serverStopped)
    }
}

private func onSocketRead(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketConnection>.fromOpaque(arg).takeUnretainedValue().readAvailable()
}

private func onSocketWrite(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketConnection>.fromOpaque(arg).takeUnretainedValue().drained()
}

private func onSocketEvent(_ bev: OpaquePointer?, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketConnection>.fromOpaque(arg).takeUnretainedValue().networkEnded(events)
}

private func onSocketTimer(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<WebSocketConnection>.fromOpaque(arg).takeUnretainedValue().timerFired()
}
