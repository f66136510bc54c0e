import CLibevent
import Dispatch
public import StubdHTTP
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
    private let connection: OpaquePointer
    private let channel: WebSocketChannel
    private unowned let worker: Worker
    private let peer: any WebSocketPeer
    private var open = true

    private init(connection: OpaquePointer, bev: OpaquePointer, worker: Worker, upgrade: WebSocketUpgrade) {
        self.connection = connection
        self.channel = WebSocketChannel(bev: bev, worker: worker, messageLimit: upgrade.messageLimit, serverSide: true)
        self.worker = worker
        self.peer = upgrade.peer
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
        socket.channel.attach(socket)
        // A conversation may stay idle as long as the client keeps it: no evhttp timeouts.
        bufferevent_set_timeouts(bev, nil, nil)
        bufferevent_setwatermark(bev, Int16(EV_READ), 0, 0)
        _ = upgrade.head.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
        socket.peer.opened(socket)
        // Bytes the client sent right behind its request (it should not, but may) are read now.
        socket.channel.readAvailable()
    }

    // MARK: From any thread

    /// Sends a message (dropped once the conversation is over or closing).
    public func send(_ message: WebSocketMessage) {
        onLoop { socket in
            guard socket.channel.closing == nil, socket.channel.endingAfterWrite == nil else { return }
            socket.channel.write(WebSocketFrame.message(message))
        }
    }

    /// Closes cleanly: a close frame, then the connection once the client answers (2 s at most).
    public func close(code: Int, reason: String) {
        onLoop { socket in
            guard socket.channel.closing == nil, socket.channel.endingAfterWrite == nil else { return }
            socket.channel.startClosing(code: code, reason: reason)
        }
    }

    /// Fails as the fault says (`WebSocketFault`). A `drop` or `abrupt` ends the connection once
    /// what was queued before it (the 101, earlier sends) is written, so a script's steps reach the
    /// client in order: an immediate reset discarded them (websockets read no 101).
    public func fault(_ fault: WebSocketFault) {
        onLoop { socket in
            switch fault {
            case .drop: socket.channel.finishAfterWrite(code: nil, reason: "dropped (a reset)", by: .server, reset: true)
            case .abrupt: socket.channel.finishAfterWrite(code: nil, reason: "closed without a close frame", by: .server)
            case .invalidFrame: socket.channel.write(WebSocketFrame.invalid)
            case .stopPongs: socket.channel.answersPings = false
            }
        }
    }

    /// Runs `work` on the loop after `seconds` (for scripts), unless the conversation ended.
    public func after(_ seconds: Double, _ work: @escaping @Sendable () -> Void) {
        guard seconds > 0 else { return onLoop { _ in work() } }
        onLoop { socket in socket.channel.schedule(after: seconds, work) }
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

    /// The connection budget needs this connection for another client (`ConnectionBudget`): a
    /// close frame 1001 (going away), and the connection freed once it is written, or after a
    /// second if it cannot leave — at once, with a reset, when the client has stopped reading and
    /// the frame could not reach it.
    private func leaveForRoom() {
        guard open else { return }
        let reason = "stubd needed the connection for another client (at its connection cap)"
        guard channel.closing == nil, channel.endingAfterWrite == nil, channel.pendingOutput < Self.roomFrameSlack else {
            return end(code: nil, reason: reason, by: .server, reset: true)
        }
        channel.startClosing(code: 1001, reason: reason, saying: "going away: server at its connection cap", seconds: 1)
        channel.finishAfterWrite(code: 1001, reason: reason, by: .server)
    }

    /// The server is draining: a close frame 1001 (going away) now, the connection freed once the
    /// client answers it or within a second.
    func serverDraining() {
        guard open, channel.closing == nil, channel.endingAfterWrite == nil else { return }
        channel.startClosing(code: 1001, reason: "stubd is shutting down", saying: "going away: stubd is shutting down", seconds: 1)
    }

    /// Bytes still waiting to be sent under which a conversation made to give way gets its close frame.
    private static let roomFrameSlack = 64 << 10

    /// Ends the conversation and frees the connection (with a reset when asked).
    private func end(code: Int?, reason: String, by: WebSocketEnding, reset: Bool) {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        channel.release()
        worker.inFlight.letGo(self)
        if reset { LibeventFaultInjector.reset(connection) } else { evhttp_connection_free(connection) }
        peer.ended(code: code, reason: reason, by: by)
    }

    /// The server stops: evhttp frees the connection with the others; only the peer hears.
    func serverStopped() {
        guard open else { return }
        open = false
        worker.budget.letGo(ObjectIdentifier(self))
        channel.release()
        peer.ended(code: 1001, reason: "stubd stopped", by: .serverStopped)
    }
}

extension WebSocketConnection: WebSocketChannelOwner {
    func channelRead(_ bytes: [UInt8]) {
        worker.budget.heldActive(ObjectIdentifier(self))
        channel.readFrames(bytes)
    }

    func channelReceived(_ message: WebSocketMessage) { peer.received(message, on: self) }

    func channelBroken(code: Int, reason: String) -> (reason: String, by: WebSocketEnding) { (reason, .server) }

    func channelEvent(_ events: Int16) {
        // A conversation has no idle timeout (docs/WEBSOCKETS.md): a read timeout evhttp left on
        // the connection fired after the client's first message, closing it without a close
        // frame. Cleared and reading again; only the client, a script, a test or the connection
        // budget (with 1001) ends a conversation.
        if events & Int16(BEV_EVENT_TIMEOUT) != 0, channel.endingAfterWrite == nil, channel.closing == nil {
            bufferevent_set_timeouts(channel.bev, nil, nil)
            bufferevent_enable(channel.bev, Int16(EV_READ | EV_WRITE))
            return
        }
        if let ending = channel.endingAfterWrite {
            end(code: ending.code, reason: ending.reason, by: ending.by, reset: ending.reset)
        } else {
            end(code: 1006, reason: events & Int16(BEV_EVENT_EOF) != 0 ? "the client closed the connection without a close frame" : "the connection failed",
                by: .network, reset: false)
        }
    }

    func channelEnd(code: Int?, reason: String, by: WebSocketEnding, reset: Bool) {
        end(code: code, reason: reason, by: by, reset: reset)
    }
}
