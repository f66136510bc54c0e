import CLibevent
import Dispatch
import StubdHTTP
import StubdHTTP2
import StubdSystem

/// An HTTP/2 connection, taken from evhttp before it read a byte (a client's preface on the plain
/// port: `FirstBytes`; ALPN's `h2` on TLS) or right after the HTTP/1.1 request that asked for h2c
/// (`HTTP2Connection+Upgrade`): its bufferevent's callbacks become this object's, as a WebSocket's do after
/// its upgrade, and an `HTTP2Session` reads and writes its frames. Each stream's request becomes
/// an `IncomingRequest` for the same handler as an HTTP/1.1 request — one arrival, one pipeline,
/// one journal — and its plan is carried out as HTTP/2: the response as HEADERS and DATA under the
/// client's flow control, a delay on a loop timer, a timed answer (a stream's events, a dribble)
/// by `HTTP2ScriptPlayer`, a stream written as it goes by `HTTP2StreamWriter`, a fault as the
/// stream's failure (`HTTP2Fault`). An answer HTTP/2 does not carry (a WebSocket, a tunnel)
/// resets its stream with HTTP_1_1_REQUIRED, which curl and Chromium answer by asking again over
/// HTTP/1.1.
///
/// One per connection (as nghttp2's own libevent server keeps one session per connection); owned
/// by the loop's `InFlightRegistry` until the connection ends. evhttp keeps the connection's
/// bookkeeping and frees it — bufferevent and socket — when this object says so.
final class HTTP2Connection: InFlight {
    private let connection: OpaquePointer
    private let bev: OpaquePointer
    private unowned let worker: Worker
    private let session: HTTP2Session
    private let number: Int
    private let peer: String
    private let isTLS: Bool
    private let tunnel: Tunnel
    private let onEnd: () -> Void
    /// Requests this connection has carried (a request's place on it).
    private var requests = 0
    /// Streams whose answer waits for a delay or a later completion.
    private var waiting: [Int32: WaitingStream] = [:]
    /// Streams playing a timed answer (a stream's events, a dribbled body).
    private var playing: [Int32: HTTP2ScriptPlayer] = [:]
    /// Streams written as they go (`ReplyStream`s: events, a streamed body).
    private var writing: [Int32: HTTP2StreamWriter] = [:]
    private var ended = false
    /// GOAWAY was sent (idle past the timeout, the server draining): the connection ends once no
    /// stream is open and everything is written, or one idle timeout later whatever the client does.
    private var closingWhenIdle = false
    /// Output above which no more frames are made until the socket takes what is queued.
    static let outputHighWater = 512 * 1024

    /// Where the connection came from: a direct port, an intercepted tunnel of the proxy (every
    /// stream's request carries the tunnel's host and session, as an HTTP/1.1 request in it
    /// does), or the interception front with no tunnel leading to it (refused, 421).
    enum Tunnel {
        case direct
        case through(ProxyArrival)
        case unknown
    }

    /// Takes `bev`, the bufferevent of evhttp's `connection`, for HTTP/2: the bytes already in
    /// its input (the preface and what followed) are read at once. `requestsBefore`: requests the
    /// connection carried as HTTP/1.1 (the one that asked for h2c).
    init(connection: OpaquePointer, bev: OpaquePointer, worker: Worker, number: Int, peer: String, isTLS: Bool, tunnel: Tunnel,
         requestsBefore: Int = 0, onEnd: @escaping () -> Void) {
        self.connection = connection
        self.requests = requestsBefore
        self.tunnel = tunnel
        self.bev = bev
        self.worker = worker
        self.number = number
        self.peer = peer
        self.isTLS = isTLS
        self.onEnd = onEnd
        let configuration = worker.configuration
        session = HTTP2Session(limits: HTTP2Limits(maxHeaderListBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes))
        session.onRequest = { [unowned self] request in self.arrived(request) }
        session.onStreamClosed = { [unowned self] stream, _ in self.streamClosed(stream) }
    }

    /// Starts reading and writing on the connection (its callbacks are this object's from now).
    func start() {
        worker.inFlight.hold(self)
        worker.budget.hold(ObjectIdentifier(self)) { [unowned self] in self.leaveForRoom() }
        bufferevent_setcb(bev, onHTTP2Read, onHTTP2Write, onHTTP2Event, Unmanaged.passUnretained(self).toOpaque())
        bufferevent_setwatermark(bev, Int16(EV_READ), 0, 0)
        bufferevent_setwatermark(bev, Int16(EV_WRITE), 0, 0)
        armIdleTimeout()
        bufferevent_enable(bev, Int16(EV_READ | EV_WRITE))
        readAvailable()
    }

    /// Goes on as HTTP/2 from `request`, the HTTP/1.1 request that asked for h2c with `settings`
    /// (`HTTP2Upgrade`): the `101`, the server's SETTINGS, and `request` answered on stream 1 as
    /// any stream's request is. False, with nothing written, when the settings are refused.
    func startUpgraded(from request: IncomingRequest, settings: [UInt8]) -> Bool {
        guard session.upgrade(settings: settings, headRequest: request.method == "HEAD") else { return false }
        _ = HTTP2Upgrade.switchingHead.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) }
        start()
        dispatch(request, on: 1)
        flush()
        return true
    }

    // MARK: - Bytes

    fileprivate func readAvailable() {
        guard !ended, let input = bufferevent_get_input(bev) else { return }
        worker.budget.heldActive(ObjectIdentifier(self))
        while evbuffer_get_length(input) > 0 {
            let length = min(evbuffer_get_length(input), 64 * 1024)
            guard let bytes = evbuffer_pullup(input, length) else { break }
            let ok = session.receive(UnsafeRawBufferPointer(start: bytes, count: length))
            evbuffer_drain(input, length)
            if !ok {
                worker.configuration.onEvent?("an HTTP/2 client broke the protocol (\(session.failure ?? "?")): the connection ends with GOAWAY")
                evbuffer_drain(input, evbuffer_get_length(input))
                break
            }
        }
        flush()
    }

    /// Writes what the session has made, up to the high-water mark; ends the connection once the
    /// session is finished and everything is written.
    fileprivate func flush() {
        guard !ended, let output = bufferevent_get_output(bev) else { return }
        repeat {
            while evbuffer_get_length(output) < Self.outputHighWater, let bytes = session.produce() {
                _ = bytes.withUnsafeBytes { evbuffer_add(output, $0.baseAddress, $0.count) }
            }
        } while evbuffer_get_length(output) < Self.outputHighWater && takeNextBatches()
        guard evbuffer_get_length(output) == 0 else { return }
        if session.isFinished || (closingWhenIdle && !session.hasOpenStreams && isIdle) { end() }
    }

    /// Each stream written as it goes whose last batch has gone takes its next; true when one
    /// gave the session more to send.
    private func takeNextBatches() -> Bool {
        guard !writing.isEmpty else { return false }
        var took = false
        for (stream, writer) in writing {
            if writer.sent() { took = true }
            if writer.done { writing[stream] = nil }
        }
        if writing.isEmpty { armIdleTimeout() }
        return took
    }

    fileprivate func event(_ what: Int16) {
        if what & Int16(BEV_EVENT_TIMEOUT) != 0, !closingWhenIdle, isIdle {
            // Idle past the server's timeout: a graceful GOAWAY, then the close once it is written
            // (or at the next timeout, if the client neither closes nor leaves the streams).
            goAwayWhenIdle(debug: "idle")
            if !ended { bufferevent_enable(bev, Int16(EV_READ | EV_WRITE)) }
            return
        }
        end()
    }

    /// Says GOAWAY (streams already taken are still answered) and ends the connection once it is idle.
    private func goAwayWhenIdle(debug: String) {
        guard !ended, !closingWhenIdle else { return }
        closingWhenIdle = true
        session.goAway(code: .noError, debug: debug)
        armIdleTimeout()
        flush()
    }

    /// No stream waits for its answer, plays a script or is written as it goes.
    private var isIdle: Bool { waiting.isEmpty && playing.isEmpty && writing.isEmpty }

    /// The read timeout is the server's idle timeout while no stream is waiting or playing; off
    /// while one is.
    private func armIdleTimeout() {
        guard !ended else { return }
        guard isIdle else {
            bufferevent_set_timeouts(bev, nil, nil)
            return
        }
        var idle = System.timeValue(seconds: worker.configuration.idleTimeoutSeconds)
        bufferevent_set_timeouts(bev, &idle, nil)
    }

    /// Ends the connection: waiting streams stop (their exchanges still end, so the journal shows
    /// them), evhttp frees the connection.
    private func end(_ ending: ReplyStream.Ending = .clientLeft) {
        guard !ended else { return }
        ended = true
        for (_, writer) in writing { writer.stopped(ending) }
        writing.removeAll()
        for (_, stream) in waiting { stream.stop(finished: true) }
        waiting.removeAll()
        for (_, player) in playing { player.streamClosed() }
        playing.removeAll()
        worker.inFlight.letGo(self)
        worker.budget.letGo(ObjectIdentifier(self))
        bufferevent_setcb(bev, nil, nil, nil, nil)
        evhttp_connection_free(connection)
        onEnd()
    }

    /// The budget needs the connection for another client: GOAWAY, and the close.
    private func leaveForRoom() {
        session.goAway(code: .noError, debug: "stubd needed the connection for another client (at its connection cap)")
        _ = session.produce().map { bytes in bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) } }
        end()
    }

    // MARK: - Streams

    private func arrived(_ arrival: HTTP2Request) {
        requests += 1
        if let refusal = HTTP2Arrival.refusal(for: arrival) {
            send(refusal, headOnly: arrival.method == "HEAD", extraHeaders: [], on: arrival.stream)
            return
        }
        var request = IncomingRequest(method: arrival.method, target: arrival.path, headers: HTTP2Arrival.headers(of: arrival), body: arrival.body)
        request.connection = ConnectionUse(number: number, request: requests)
        request.peer = peer
        request.isTLS = isTLS
        request.isHTTP2 = true
        switch tunnel {
        case .direct: break
        case .through(let arrival): request.proxied = arrival
        case .unknown:
            send(ProtocolChecks.reply(421, "this connection came through no tunnel of stubd's proxy"), headOnly: false, extraHeaders: [], on: arrival.stream)
            return
        }
        if let refusal = ProtocolChecks.refusal(for: request) {
            send(refusal, headOnly: false, extraHeaders: [], on: arrival.stream)
            return
        }
        dispatch(request, on: arrival.stream)
    }

    /// Hands `request` to the handler and carries out its plan on `stream`, now or later.
    private func dispatch(_ request: IncomingRequest, on stream: Int32) {
        let start = DispatchTime.now().uptimeNanoseconds
        let token = worker.nextToken()
        let handle = ReplyHandle(carrier: worker.mailbox, request: nil, token: token, start: start)
        switch worker.handler.handle(request, reply: handle) {
        case .reply(let plan, let listener): carryOut(plan, on: stream, start: start, listener: listener)
        case .later:
            waiting[stream] = WaitingStream(token: token, listener: nil, timer: nil)
            worker.awaitLater(token, on: self, stream: stream)
            armIdleTimeout()
        }
    }

    /// A later completion for `stream` (from the worker's mailbox).
    func complete(stream: Int32, plan: ReplyPlan, start: UInt64, listener: (any ReplyListener)?) {
        guard !ended, waiting.removeValue(forKey: stream) != nil else {
            listener?.replyFinished(latencySeconds: Self.seconds(since: start))
            return
        }
        carryOut(plan, on: stream, start: start, listener: listener)
        armIdleTimeout()
        flush()
    }

    private func carryOut(_ plan: ReplyPlan, on stream: Int32, start: UInt64, listener: (any ReplyListener)?) {
        guard let delay = plan.delay, delay > 0 else { return execute(plan, on: stream, start: start, listener: listener) }
        let waiter = WaitingStream(token: 0, listener: listener, timer: nil)
        waiter.fire = { [unowned self] in
            withExtendedLifetime(self) {
                self.waiting.removeValue(forKey: stream)?.stop(finished: false)
                self.execute(plan, on: stream, start: start, listener: listener)
                self.armIdleTimeout()
                self.flush()
            }
        }
        waiter.start = start
        waiter.timer = clev_timer_new(worker.base, onHTTP2Timer, Unmanaged.passUnretained(waiter).toOpaque())
        guard let timer = waiter.timer, worker.arm(timer, after: delay) else {
            return execute(plan, on: stream, start: start, listener: listener)
        }
        waiting[stream] = waiter
        armIdleTimeout()
    }

    private func execute(_ plan: ReplyPlan, on stream: Int32, start: UInt64, listener: (any ReplyListener)?) {
        guard !plan.alreadySent, session.isOpen(stream) else {
            listener?.replyFinished(latencySeconds: Self.seconds(since: start))
            return
        }
        switch plan.content {
        case .response(let reply):
            if let dribble = plan.dribble, !plan.headOnly, !reply.body.isEmpty {
                // A dribble is a script of the body's pieces; the player reports when it is over.
                return play(.dribble(reply, dribble), extraHeaders: plan.extraHeaders, on: stream, start: start, listener: listener)
            }
            send(reply, headOnly: plan.headOnly, extraHeaders: plan.extraHeaders, on: stream)
        case .script(let script) where !plan.headOnly:
            return play(script, extraHeaders: plan.extraHeaders, on: stream, start: start, listener: listener)
        case .script(let script):
            send(PreparedReply(status: script.status, headers: script.headers, body: []), headOnly: true, extraHeaders: plan.extraHeaders, on: stream)
        case .fault(let fault, let sending):
            HTTP2Fault.apply(fault, sending: sending, on: stream, session: session, extraHeaders: plan.extraHeaders,
                             hangCap: worker.configuration.hangCapSeconds, hold: { [unowned self] seconds, then in self.hold(stream, seconds, then) })
        case .stream(let replyStream):
            write(replyStream, headOnly: plan.headOnly, extraHeaders: plan.extraHeaders, on: stream)
        case .upgrade, .tunnel:
            session.reset(stream: stream, code: .http11Required)
            worker.configuration.onEvent?("an HTTP/2 request met an answer stubd sends only over HTTP/1.1 (\(plan.content.kindName)): "
                                          + "its stream was reset with HTTP_1_1_REQUIRED (curl and Chromium ask again over HTTP/1.1; or serve with --http2 off)")
            if case .upgrade(let upgrade) = plan.content { upgrade.peer.ended(code: nil, reason: "asked over HTTP/2, which has no upgrade", by: .network) }
        }
        listener?.replyFinished(latencySeconds: Self.seconds(since: start))
    }

    /// Plays `script` on `stream` (`HTTP2ScriptPlayer`); `listener` hears when it is over. Called
    /// from `execute`, whose own report is skipped (the player reports).
    private func play(_ script: StreamScript, extraHeaders: [NameValue], on stream: Int32, start: UInt64, listener: (any ReplyListener)?) {
        var headers = script.headers + extraHeaders
        if !headers.contains(where: { $0.name.equalsIgnoringCase("Date") }) { headers.append(NameValue("date", worker.currentDate())) }
        let player = HTTP2ScriptPlayer(script: script, stream: stream, session: session, worker: worker, start: start, listener: listener) {
            [unowned self] done in
            withExtendedLifetime(self) {
                if done { self.playing[stream] = nil }
                self.armIdleTimeout()
                self.flush()
            }
        }
        guard player.begin(headers: headers) else { return }
        playing[stream] = player
        armIdleTimeout()
    }

    /// Writes an upstream's answer relayed as it arrives on `stream`, whose request waits for its
    /// completion (which comes, `alreadySent`, once the upstream has finished); false when the
    /// stream is gone.
    func relay(_ replyStream: ReplyStream, on stream: Int32) -> Bool {
        guard !ended, session.isOpen(stream) else { return false }
        write(replyStream, headOnly: false, extraHeaders: [], on: stream)
        flush()
        return true
    }

    /// Writes `replyStream` on `stream` as its pieces come (`HTTP2StreamWriter`).
    private func write(_ replyStream: ReplyStream, headOnly: Bool, extraHeaders: [NameValue], on stream: Int32) {
        var headers = replyStream.headers + extraHeaders
        if !headers.contains(where: { $0.name.equalsIgnoringCase("Date") }) { headers.append(NameValue("date", worker.currentDate())) }
        let writer = HTTP2StreamWriter(stream: replyStream, id: stream, session: session, worker: worker) { [unowned self] done in
            withExtendedLifetime(self) {
                if done { self.writing[stream] = nil }
                self.worker.budget.heldActive(ObjectIdentifier(self))
                self.armIdleTimeout()
                self.flush()
            }
        }
        guard writer.begin(headers: headers, headOnly: headOnly) else { return }
        writing[stream] = writer
        armIdleTimeout()
    }

    /// Sends `reply` on `stream`: its headers with the plan's extra ones, `content-length`, `date`.
    private func send(_ reply: PreparedReply, headOnly: Bool, extraHeaders: [NameValue], on stream: Int32) {
        var headers = reply.headers + extraHeaders
        if let length = reply.contentLength { headers.append(NameValue("content-length", String(length))) }
        if !reply.setsDate { headers.append(NameValue("date", worker.currentDate())) }
        session.respond(stream: stream, status: reply.status, headers: headers, body: headOnly ? nil : reply.body, trailers: headOnly ? [] : reply.trailers)
    }

    /// Waits `seconds` on a timer for `stream`, then runs `then` (a hang's cap).
    private func hold(_ stream: Int32, _ seconds: Double, _ then: @escaping () -> Void) {
        let waiter = WaitingStream(token: 0, listener: nil, timer: nil)
        waiter.fire = { [unowned self] in
            withExtendedLifetime(self) {
                self.waiting.removeValue(forKey: stream)?.stop(finished: false)
                if self.session.isOpen(stream) { then() }
                self.armIdleTimeout()
                self.flush()
            }
        }
        waiter.timer = clev_timer_new(worker.base, onHTTP2Timer, Unmanaged.passUnretained(waiter).toOpaque())
        guard let timer = waiter.timer, worker.arm(timer, after: seconds) else { return then() }
        waiting[stream] = waiter
        armIdleTimeout()
    }

    /// The client reset a stream, or it ended: what waited for it or played on it stops.
    private func streamClosed(_ stream: Int32) {
        if let writer = writing.removeValue(forKey: stream) { writer.stopped(.clientLeft) }
        if let player = playing.removeValue(forKey: stream) { player.streamClosed() }
        guard let waiter = waiting.removeValue(forKey: stream) else { return armIdleTimeout() }
        waiter.stop(finished: true)
        armIdleTimeout()
    }

    private static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
    }

    // MARK: - InFlight

    let shutdownOrder = InFlightShutdown.streams

    func serverStopped() {
        guard !ended else { return }
        session.goAway(code: .noError, debug: "stubd is stopping")
        _ = session.produce().map { bytes in bytes.withUnsafeBytes { bufferevent_write(bev, $0.baseAddress, $0.count) } }
        end(.serverStopped)
    }

    func serverDraining() {
        goAwayWhenIdle(debug: "stubd is stopping")
    }
}

/// A stream's answer waiting on a timer (a delay, a hang's cap) or for a later completion.
private final class WaitingStream {
    let token: UInt64
    let listener: (any ReplyListener)?
    var timer: OpaquePointer?
    var start: UInt64 = 0
    var fire: (() -> Void)?

    init(token: UInt64, listener: (any ReplyListener)?, timer: OpaquePointer?) {
        self.token = token
        self.listener = listener
        self.timer = timer
    }

    /// Frees the timer; `finished`: the stream went without its answer, whose listener still hears.
    func stop(finished: Bool) {
        if let timer { event_free(timer) }
        timer = nil
        fire = nil
        if finished, let listener { listener.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9) }
    }
}

// Each callback keeps the connection alive through the call: ending it lets the loop's table go
// of it, which would otherwise free it under the code still running.
private func onHTTP2Read(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let connection = Unmanaged<HTTP2Connection>.fromOpaque(arg).takeUnretainedValue()
    withExtendedLifetime(connection) { connection.readAvailable() }
}

private func onHTTP2Write(_ bev: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let connection = Unmanaged<HTTP2Connection>.fromOpaque(arg).takeUnretainedValue()
    withExtendedLifetime(connection) { connection.flush() }
}

private func onHTTP2Event(_ bev: OpaquePointer?, _ what: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let connection = Unmanaged<HTTP2Connection>.fromOpaque(arg).takeUnretainedValue()
    withExtendedLifetime(connection) { connection.event(what) }
}

private func onHTTP2Timer(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    // Kept alive through the call: firing takes it out of its connection's table.
    let waiter = Unmanaged<WaitingStream>.fromOpaque(arg).takeUnretainedValue()
    withExtendedLifetime(waiter) { waiter.fire?() }
}
