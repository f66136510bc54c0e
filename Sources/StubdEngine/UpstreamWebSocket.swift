import CLibevent
import CLibeventTLS
import CStubdTLS
public import StubdHTTP
import StubdSystem
import Foundation

/// What an upstream answered a WebSocket upgrade (`UpstreamClient.openWebSocket`).
public enum UpstreamWebSocketAnswer: Sendable {
    /// `101` with the accept key the client's key calls for: the conversation is open. Nothing is
    /// read from the upstream until a peer is attached (`UpstreamWebSocket.attach`).
    case upgraded(UpstreamWebSocket, subprotocol: String?)
    /// Any other answer, as it came (a body up to `UpstreamWebSocket.bodyLimit`): the client
    /// gets it, so a refused upgrade (401, 403, 404) reads the same through stubd.
    case answered(status: Int, headers: [NameValue], body: [UInt8])
    /// No answer: the cause, for a 502.
    case failed(String)
}

/// The proxy's side of a conversation with an upstream. Every call comes on the loop's thread.
public protocol UpstreamWebSocketPeer: AnyObject, Sendable {
    /// A whole upstream message (fragments reassembled).
    func upstreamSent(_ message: WebSocketMessage)
    /// The conversation with the upstream ended: the close code seen, its reason, and who ended
    /// it — `.server` the upstream, `.client` stubd (for its own client), `.network` neither.
    func upstreamEnded(code: Int?, reason: String, by: WebSocketEnding)
}

/// A WebSocket client connection to an upstream, on a serving loop: the handshake (the client's
/// key and subprotocols, no extension offered, so every frame is readable for the recorder), then
/// frames both ways — masked out (§5.3), unmasked in. Pings from the upstream are answered here.
///
/// Loop-confined except `send`, `close` and `abandon`, which hop onto the loop. Owned by
/// the loop's `InFlightRegistry` until it ends.
public final class UpstreamWebSocket: @unchecked Sendable {
    /// Bytes of a refused upgrade's body kept for the client.
    public static let bodyLimit = 1 << 20
    /// Bytes the upstream's head may take.
    static let headLimit = 64 << 10

    private enum Phase {
        /// Waiting for the head (then the body of a refusal).
        case handshake
        /// 101 received; reading paused until a peer is attached.
        case upgraded
        case open
        case ended
    }

    private let channel: WebSocketChannel
    private unowned let worker: Worker
    private let expectedAccept: String
    private let host: String
    private var phase = Phase.handshake
    private var completion: ((UpstreamWebSocketAnswer) -> Void)?
    private var input: [UInt8] = []
    private var refusal: (status: Int, headers: [NameValue], length: Int?)?
    private var peer: (any UpstreamWebSocketPeer)?
    private let isTLS: Bool

    private init(bev: OpaquePointer, worker: Worker, key: String, host: String, messageLimit: Int, isTLS: Bool) {
        self.channel = WebSocketChannel(bev: bev, worker: worker, messageLimit: messageLimit, serverSide: false)
        self.worker = worker
        self.expectedAccept = WebSocketHandshake.accept(key: key)
        self.host = host
        self.isTLS = isTLS
    }

    /// Connects to `request`'s upstream and sends its upgrade (`request.headers` carry the
    /// client's `Sec-WebSocket-Key`, `-Version` and `-Protocol`; `Upgrade` and `Connection` are
    /// added here); `completion` runs once, on the loop.
    static func start(_ request: UpstreamRequest, messageLimit: Int, on worker: Worker, completion: @escaping (UpstreamWebSocketAnswer) -> Void) {
        let key = request.headers.first { $0.name.lowercased() == "sec-websocket-key" }?.value ?? ""
        let options = Int32(BEV_OPT_CLOSE_ON_FREE.rawValue | BEV_OPT_DEFER_CALLBACKS.rawValue)
        var made: OpaquePointer?
        if let tls = request.tls {
            switch worker.tlsContext(for: tls) {
            case .failure(let problem):
                return completion(.failed(problem.description))
            case .success(let context):
                guard let ssl = SSL_new(context) else { return completion(.failed("TLS: cannot create a session")) }
                stubd_ssl_set_sni(ssl, request.host)
                if tls.verify { SSL_set1_host(ssl, request.host) }
                made = bufferevent_openssl_socket_new(worker.base, -1, ssl, BUFFEREVENT_SSL_CONNECTING, options)
                if made == nil { SSL_free(ssl) } else { bufferevent_openssl_set_allow_dirty_shutdown(made, 1) }
            }
        } else {
            made = bufferevent_socket_new(worker.base, -1, options)
        }
        guard let bev = made else { return completion(.failed("cannot open a connection to \(request.host):\(request.port)")) }
        let socket = UpstreamWebSocket(bev: bev, worker: worker, key: key, host: request.host, messageLimit: messageLimit, isTLS: request.tls != nil)
        socket.completion = completion
        worker.inFlight.hold(socket)
        socket.channel.attach(socket)
        var timeout = System.timeValue(seconds: request.timeoutSeconds)
        bufferevent_set_timeouts(bev, &timeout, &timeout)
        var head = "GET \(request.target) HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        for header in request.headers { head += "\(header.name): \(header.value)\r\n" }
        let bytes = Array((head + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        worker.dnsStarted = true
        guard bufferevent_socket_connect_hostname(bev, worker.dns, AF_UNSPEC, request.address ?? request.host, Int32(request.port)) == 0 else {
            return socket.fail("cannot connect to \(request.host):\(request.port)")
        }
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
    }

    // MARK: From any thread

    /// Starts reading the conversation, whose messages and end `peer` hears from now on.
    public func attach(_ peer: any UpstreamWebSocketPeer) {
        onLoop { socket in
            guard socket.phase == .upgraded else { return }
            socket.peer = peer
            socket.phase = .open
            bufferevent_enable(socket.channel.bev, Int16(EV_READ))
            if !socket.input.isEmpty {
                let early = socket.input
                socket.input = []
                socket.channel.readFrames(early)
            }
            socket.channel.readAvailable()
        }
    }

    /// Sends a message (masked; dropped once the conversation is over).
    public func send(_ message: WebSocketMessage) {
        onLoop { socket in
            guard socket.phase == .open, socket.channel.closing == nil else { return }
            socket.channel.write(WebSocketFrame.message(message))
        }
    }

    /// Closes cleanly: a close frame, then the connection once the upstream answers (2 s at most).
    public func close(code: Int, reason: String) {
        onLoop { $0.startClosing(code: code, reason: reason) }
    }

    /// Ends it now, without a close frame (the client left before the conversation began).
    public func abandon() {
        onLoop { $0.end(code: nil, reason: "abandoned", by: .client) }
    }

    private func onLoop(_ work: @escaping @Sendable (UpstreamWebSocket) -> Void) {
        if worker.mailbox.owner.isCurrent {
            guard phase != .ended else { return }
            work(self)
        } else {
            worker.mailbox.post { [self] in
                guard phase != .ended else { return }
                work(self)
            }
        }
    }

    // MARK: On the loop

    private func handshake(_ bytes: [UInt8]) {
        input += bytes
        if let refusal {
            if let length = refusal.length, input.count >= min(length, Self.bodyLimit) { finishRefusal() }
            return
        }
        guard let end = FirstBytes.headEnd(input) else {
            if input.count > Self.headLimit { fail("the upstream's answer head is over \(Self.headLimit >> 10) KiB") }
            return
        }
        let lines = String(decoding: input[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        input.removeFirst(end + 4)
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            return fail("the upstream did not answer HTTP: \(lines[0].prefix(80))")
        }
        var headers: [NameValue] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(NameValue(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value }
        guard status == 101 else {
            let length = header("content-length").flatMap { CheckedNumber.decimalDigits($0.trimmingCharacters(in: .whitespaces)) }
            refusal = (status, headers, length)
            if length == nil && header("transfer-encoding") != nil {
                // A chunked refusal: the status and headers are what matters; no body.
                input = []
                return finishRefusal()
            }
            if let length, input.count >= min(length, Self.bodyLimit) { finishRefusal() }
            return
        }
        guard header("sec-websocket-accept") == expectedAccept else {
            return fail("the upstream answered 101 with a Sec-WebSocket-Accept that does not match the key")
        }
        guard header("sec-websocket-extensions") == nil else {
            return fail("the upstream agreed to an extension stubd did not offer (\(header("sec-websocket-extensions") ?? ""))")
        }
        phase = .upgraded
        bufferevent_set_timeouts(channel.bev, nil, nil)
        bufferevent_disable(channel.bev, Int16(EV_READ))
        complete(.upgraded(self, subprotocol: header("sec-websocket-protocol")))
    }

    private func finishRefusal() {
        guard let refusal else { return }
        let body = Array(input.prefix(min(refusal.length ?? input.count, Self.bodyLimit)))
        complete(.answered(status: refusal.status, headers: refusal.headers, body: body))
        end(code: nil, reason: "", by: .client)
    }

    private func startClosing(code: Int, reason: String) {
        guard phase == .open, channel.closing == nil else {
            if phase == .upgraded { end(code: code, reason: reason, by: .client) }
            return
        }
        channel.startClosing(code: code, reason: reason)
    }

    func channelEvent(_ events: Int16) {
        if events & Int16(BEV_EVENT_CONNECTED) != 0 { return }
        let timedOut = events & Int16(BEV_EVENT_TIMEOUT) != 0
        let eof = events & Int16(BEV_EVENT_EOF) != 0
        switch phase {
        case .handshake:
            // A refusal whose body ends with the connection (or never comes whole): what came.
            if refusal != nil, eof || timedOut { return finishRefusal() }
            var cause = timedOut ? "no answer within the timeout" : eof ? "the upstream closed the connection before answering" : "the connection failed"
            if !timedOut, !eof {
                let error = System.lastError
                if error.rawValue != 0 { cause += ": \(error)" }
                if isTLS, let text = stubd_ssl_last_error_text() { cause += " (TLS: \(String(cString: text)))" }
            }
            fail("\(host): \(cause)")
        case .upgraded, .open:
            if let ending = channel.endingAfterWrite { return end(code: ending.code, reason: ending.reason, by: ending.by) }
            if let closing = channel.closing { return end(code: closing.code, reason: closing.reason, by: .client) }
            end(code: 1006, reason: eof ? "the upstream closed the connection without a close frame" : "the connection to the upstream failed", by: .network)
        case .ended:
            break
        }
    }

    private func fail(_ cause: String) {
        complete(.failed(cause))
        end(code: nil, reason: cause, by: .network)
    }

    private func complete(_ answer: UpstreamWebSocketAnswer) {
        guard let completion else { return }
        self.completion = nil
        completion(answer)
    }

    /// Ends the conversation and frees the connection.
    private func end(code: Int?, reason: String, by: WebSocketEnding) {
        guard phase != .ended else { return }
        phase = .ended
        channel.release()
        bufferevent_free(channel.bev)
        worker.inFlight.letGo(self)
        complete(.failed(reason))
        let peer = self.peer
        self.peer = nil
        peer?.upstreamEnded(code: code, reason: reason, by: by)
    }

    /// The server stops: the connection goes with the loop; only the peer hears.
    func serverStopped() {
        guard phase != .ended else { return }
        end(code: 1001, reason: "stubd stopped", by: .serverStopped)
    }
}

extension UpstreamWebSocket: WebSocketChannelOwner {
    func channelRead(_ bytes: [UInt8]) {
        switch phase {
        case .handshake: handshake(bytes)
        case .upgraded: input += bytes
        case .open: channel.readFrames(bytes)
        case .ended: break
        }
    }

    func channelReceived(_ message: WebSocketMessage) { peer?.upstreamSent(message) }

    func channelBroken(code: Int, reason: String) -> (reason: String, by: WebSocketEnding) {
        ("the upstream broke the protocol: \(reason)", .network)
    }

    func channelEnd(code: Int?, reason: String, by: WebSocketEnding, reset: Bool) {
        end(code: code, reason: reason, by: by)
    }
}
