import CLibevent
import CLibeventTLS
import CStubdEvent
import CStubdTLS
import Dispatch
import StubdHTTP
import StubdSystem

/// One event loop: an `event_base` plus an `evhttp` per shared listening socket (HTTP, and HTTPS
/// through OpenSSL bufferevents), all answering from one handler.
///
/// Confined to its own thread: created, run and freed there. libevent objects never leave it;
/// the only cross-thread calls are `requestStop()` and completions through the `LoopMailbox`,
/// which activate events (safe because `evthread_use_pthreads()` ran before any base existed).
/// The fields touched per request skip Swift's run-time exclusivity check (`@exclusivity(unchecked)`):
/// one thread, no overlapping access, and the check cost about 75 instructions per access.
final class Worker {
    let base: OpaquePointer
    let handler: any EngineHandler
    let configuration: EngineConfiguration
    /// The connection budget its fronts share.
    let budget: ConnectionBudget
    private(set) var stopEvent: OpaquePointer?
    private(set) var mailbox: LoopMailbox!
    /// Everything in flight on this loop — delayed replies, scripts, streamed replies,
    /// conversations, upstream calls, stubd's own timed requests — owned here until each ends or
    /// the server stops.
    @exclusivity(unchecked) var inFlight = InFlightRegistry()
    /// Requests whose handler answers later (`HandlerDecision.later`), by token, until completed.
    @exclusivity(unchecked) private var awaiting: [UInt64: Awaiting] = [:]
    /// A request waiting for its later answer: evhttp's, or an HTTP/2 connection's stream.
    private enum Awaiting {
        case http1(OpaquePointer)
        case http2(HTTP2Connection, stream: Int32)
    }
    @exclusivity(unchecked) private var lastToken: UInt64 = 0
    /// The drain's timer and deadline, once the server drains (`beginDrain`).
    private var drainTimer: OpaquePointer?
    private var drainDeadline: UInt64 = 0
    /// Asynchronous DNS for upstream calls, made on first use (`UpstreamCall`).
    private(set) lazy var dns: OpaquePointer? = {
        let dns = evdns_base_new(base, EVDNS_BASE_INITIALIZE_NAMESERVERS)
        if let dns { evdns_base_load_hosts(dns, nil) }
        return dns
    }()
    var dnsStarted = false
    /// The `Date` value of this loop's replies, formatted once a second.
    @exclusivity(unchecked) private var dateHeader = DateHeader()
    /// Measures this loop's lag, when asked to (`measureLag`).
    private var lagTimer: LoopLagTimer?
    /// One OpenSSL context per TLS setting used by upstream calls, made on first use.
    private var tlsContexts: [UpstreamTLS: OpaquePointer] = [:]

    /// Accepts from each of `listeners` (a dup of each shared socket): plain HTTP, or HTTPS when
    /// the listener has a TLS context. Every one feeds the same handler.
    init(listeners: [(fd: Int32, tls: TLSServerContext?, kind: FrontKind)], configuration: EngineConfiguration, handler: any EngineHandler,
         numbers: ConnectionNumbers = ConnectionNumbers(), interception: Interception? = nil) throws(EngineError) {
        self.interception = interception
        // A precise clock (stubs must never answer before their delay) and, with epoll, the
        // change list: libevent's OpenSSL bufferevents toggle the write event for every reply (4
        // `epoll_ctl` per keep-alive TLS request without it, next to nginx's none). libevent
        // warns against the change list when two descriptors in one base share an open file
        // (dup): a loop holds one dup of each listening socket, each a different socket, and the
        // original is in no loop. The flags are spelled in C (`clev_loop_flags`).
        let config = event_config_new()
        event_config_set_flag(config, clev_loop_flags())
        let created = event_base_new_with_config(config)
        event_config_free(config)
        guard let base = created else { throw .libevent(operation: "create an event base") }
        self.base = base
        self.handler = handler
        self.configuration = configuration
        self.budget = ConnectionBudget(cap: configuration.connectionsPerWorker)
        self.numbers = numbers
        stopEvent = event_new(base, -1, 0, onStop, Unmanaged.passUnretained(self).toOpaque())
        mailbox = LoopMailbox(worker: self, base: base)
        for (fd, tls, kind) in listeners {
            do throws(EngineError) {
                try addFront(fd: fd, tls: tls, kind: kind)
            } catch {
                freeFronts()
                throw error
            }
        }
    }

    /// The connection numbering its fronts share with the other loops'.
    private let numbers: ConnectionNumbers

    /// Accepts from a dup of the listening socket `fd` (plain HTTP, or HTTPS with `tls`) as a
    /// front of `kind`: at start for every listener, and later for a session's proxy port.
    func addFront(fd: Int32, tls: TLSServerContext?, kind: FrontKind) throws(EngineError) {
        guard let http = evhttp_new(base) else { throw .libevent(operation: "create an HTTP server") }
        var timeout = System.timeValue(seconds: configuration.idleTimeoutSeconds)
        evhttp_set_timeout_tv(http, &timeout)
        evhttp_set_max_headers_size(http, Int(configuration.maxHeaderBytes))
        evhttp_set_max_body_size(http, Int(configuration.maxBodyBytes))
        // An oversized body is read and thrown away as it arrives (never kept), so the client
        // sees the 413 after uploading and memory stays flat (without it libevent buffered it).
        evhttp_set_flags(http, Int32(EVHTTP_SERVER_LINGERING_CLOSE))
        evhttp_set_allowed_methods(http, HTTPMethods.allowedMask)
        evhttp_set_default_content_type(http, nil)
        evhttp_set_gencb(http, onRequest, Unmanaged.passUnretained(self).toOpaque())
        guard let copy = try? System.duplicate(fd), let bound = evhttp_accept_socket_with_handle(http, copy),
              let listener = evhttp_bound_socket_get_listener(bound) else {
            evhttp_free(http)
            throw .libevent(operation: "accept on the listening socket")
        }
        let tracker = ConnectionTracker(worker: self, http: http, tls: tls, kind: kind, budget: budget,
                                        headTimeout: configuration.headTimeoutSeconds, numbers: numbers)
        tracker.attach(to: listener)
        fronts.append(Front(http: http, connections: tracker, kind: kind, source: fd))
        if tls != nil { servesTLS = true }
    }

    /// Stops the front accepting from the listening socket `fd` and closes its connections (a
    /// session's proxy port closed).
    func removeFront(fd: Int32) {
        guard let index = fronts.firstIndex(where: { $0.source == fd }) else { return }
        let front = fronts.remove(at: index)
        front.connections.shutdown()
        evhttp_free(front.http)
    }

    /// One accepting `evhttp` (plain or TLS) and its connections.
    struct Front {
        let http: OpaquePointer
        let connections: ConnectionTracker
        let kind: FrontKind
        /// The listening socket it accepts from (its own is a dup).
        let source: Int32
    }

    /// What a front is for.
    enum FrontKind {
        /// The direct HTTP or HTTPS port.
        case direct
        /// The forward proxy's port: absolute-form requests and `CONNECT`; a session's own port
        /// (`HTTPEngine.openProxyPort`) puts every request through it in `session`.
        case proxy(session: String?)
        /// The stubd side of intercepted tunnels, TLS or plain (loopback, reached only through `Tunnel`).
        case interception

        /// Whether it is the direct port (no proxy arrival to read).
        var isDirect: Bool {
            if case .direct = self { return true }
            return false
        }

        /// Whether a connection's HTTP/2 preface is taken here (the direct ports and intercepted
        /// tunnels; the proxy port speaks HTTP/1.1 to its clients).
        var takesHTTP2: Bool {
            if case .proxy = self { return false }
            return true
        }
    }

    /// The interception front's shared state, when the engine is a proxy.
    let interception: Interception?

    /// Every front of this loop.
    @exclusivity(unchecked) private(set) var fronts: [Front] = []
    /// Whether any front is HTTPS (only then is a reply's front looked up to join its TLS record).
    @exclusivity(unchecked) private var servesTLS = false

    /// The tracker of the front a request came in on.
    private func connections(of req: OpaquePointer) -> ConnectionTracker? {
        front(of: req).map { fronts[$0].connections }
    }

    /// Where in `fronts` the front a request came in on is: an index, so no `Front` (whose kind
    /// may hold a session's name) is copied per request.
    private func front(of req: OpaquePointer) -> Int? {
        guard fronts.count > 1 else { return fronts.isEmpty ? nil : 0 }
        guard let connection = evhttp_request_get_connection(req), let server = evhttp_connection_get_server(connection) else { return nil }
        return fronts.firstIndex { $0.http == server }
    }

    private func freeFronts() {
        for front in fronts {
            front.connections.shutdown()
            evhttp_free(front.http)
        }
        fronts.removeAll()
        mailbox?.close()
        if let stopEvent { event_free(stopEvent) }
        stopEvent = nil
        event_base_free(base)
    }

    /// Runs the loop until `requestStop()`, then frees everything this worker owns. Requests still
    /// waiting for a delay, a hang cap or a late completion are freed with their connections.
    func run() {
        event_base_dispatch(base)
        mailbox.close()
        // What still writes to a client's connection ends before the fronts free them.
        for item in inFlight.take(before: .afterConnections) { item.serverStopped() }
        for front in fronts { front.connections.shutdown() }
        for item in inFlight.take() { item.serverStopped() }
        awaiting.removeAll()
        for front in fronts { evhttp_free(front.http) }
        fronts.removeAll()
        lagTimer?.free()
        if let drainTimer { event_free(drainTimer) }
        if dnsStarted, let dns { evdns_base_free(dns, 0) }
        for context in tlsContexts.values { SSL_CTX_free(context) }
        if let stopEvent { event_free(stopEvent) }
        event_base_free(base)
    }

    /// Stops accepting on every front, says goodbye to what would last indefinitely (WebSockets:
    /// close 1001), and checks every 20 ms whether anything is still in flight — a delayed reply,
    /// a stream, a script, an upstream call, a request answered later — stopping the loop when
    /// nothing is, or once `grace` seconds have passed (then as `stop` does: what is left is cut).
    func beginDrain(grace: Double) {
        guard drainTimer == nil else { return }
        for front in fronts { front.connections.stopAccepting() }
        for item in inFlight.all { item.serverDraining() }
        drainDeadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, grace) * 1e9)
        drainTimer = event_new(base, -1, Int16(EV_PERSIST), onDrainTick, Unmanaged.passUnretained(self).toOpaque())
        var tick = System.timeValue(seconds: 0.02)
        if let drainTimer { event_add(drainTimer, &tick) }
        drainTick()
    }

    /// The drain's check (see `beginDrain`).
    fileprivate func drainTick() {
        guard inFlight.isEmpty && awaiting.isEmpty || DispatchTime.now().uptimeNanoseconds >= drainDeadline else { return }
        if let drainTimer { event_free(drainTimer) }
        drainTimer = nil
        event_base_loopbreak(base)
    }

    /// Starts the lag timer of loop number `loop`.
    func measureLag(_ lag: LoopLag, loop: Int) {
        lagTimer = LoopLagTimer(lag: lag, loop: loop, base: base)
    }

    func handle(_ req: OpaquePointer) {
        let front = front(of: req)
        let tracker = front.map { fronts[$0].connections }
        let arrival = tracker?.requestArrived(req)
        var request = IncomingRequest(engineRequest: req)
        request.connection = arrival?.use
        request.peer = arrival?.peer ?? ""
        request.isTLS = tracker?.isTLS ?? false
        if let front, !fronts[front].kind.isDirect {
            if let answer = proxyArrival(for: &request, kind: fronts[front].kind, req: req) {
                Reply.send(answer, extraHeaders: [NameValue("Connection", "close")], on: req, headOnly: request.method == "HEAD")
                return
            }
        }
        if let refusal = ProtocolChecks.refusal(for: request) {
            Reply.send(refusal, extraHeaders: [NameValue("Connection", "close")], on: req, headOnly: false)
            return
        }
        // `Upgrade: h2c` on a direct plain port: the request is answered as HTTP/2's stream 1.
        if request.sentUpgrade, configuration.http2, let front, fronts[front].kind.isDirect, !request.isTLS,
           HTTP2Connection.upgrade(req, request: request, worker: self) {
            return
        }
        lastToken &+= 1
        let start = DispatchTime.now().uptimeNanoseconds
        let handle = ReplyHandle(carrier: mailbox, request: req, token: lastToken, start: start)
        // Decide, then write: the handler has returned before anything goes on the wire.
        switch handler.handle(request, reply: handle) {
        case .reply(let plan, let listener): carryOut(plan, on: req, start: start, listener: listener)
        case .later: awaiting[lastToken] = .http1(req)
        }
    }

    /// A fresh token for a `ReplyHandle` (an HTTP/2 stream's request).
    func nextToken() -> UInt64 {
        lastToken &+= 1
        return lastToken
    }

    /// `stream` of `connection` waits for the later completion of the handle with `token`.
    func awaitLater(_ token: UInt64, on connection: HTTP2Connection, stream: Int32) {
        awaiting[token] = .http2(connection, stream: stream)
    }

    /// Arms the one-shot `timer` to fire `seconds` from now (never early: libevent measures from
    /// the loop's cached time, refreshed first); false when libevent refused it.
    @discardableResult
    func arm(_ timer: OpaquePointer, after seconds: Double) -> Bool {
        var interval = System.timeValue(seconds: max(0, seconds))
        event_base_update_cache_time(base)
        return event_add(timer, &interval) == 0
    }

    /// The `Date` value of this loop's replies now (`DateHeader`).
    func currentDate() -> String {
        dateHeader.current(base: base).withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Sets `request.proxied` for a request on the proxy port or in an intercepted tunnel, and
    /// takes the proxy's own headers off it (its credentials never reach matching or the
    /// journal); the answer to send instead when it names no server (a refusal, or the CA's files
    /// for a device asking the proxy port for them).
    private func proxyArrival(for request: inout IncomingRequest, kind: FrontKind, req: OpaquePointer) -> PreparedReply? {
        switch kind {
        case .direct:
            return nil
        case .proxy(let portSession):
            let target = evhttp_request_get_uri(req).map { String(cString: $0) } ?? "/"
            if ["GET", "HEAD"].contains(request.method), let document = configuration.proxy?.caDocuments[request.rawPath] {
                return PreparedReply(status: 200, headers: [NameValue("Content-Type", document.contentType)], body: document.body)
            }
            guard var arrival = ProxyArrival.parse(method: request.method, target: target, headers: request.headers) else {
                return Self.proxyRefusal(status: 400, "stubd's proxy port takes requests sent through a proxy (absolute-form "
                    + "GET http://host/path, or CONNECT host:port); \(request.method) \(target) names no server. Point the client's "
                    + "proxy setting here, or send direct requests to stubd's own port")
            }
            if let password = configuration.proxy?.password, ProxyArrival.credentials(in: request.headers)?.password != password {
                return PreparedReply(status: 407, headers: [NameValue("Proxy-Authenticate", "Basic realm=\"stubd\""),
                                                            NameValue("Content-Type", "text/plain; charset=utf-8")],
                                     body: Array("stubd's proxy needs its password: use http://SESSION:PASSWORD@host:port as the proxy\n".utf8))
            }
            // A session's own port: its session, whatever the credentials' user says.
            if let portSession { arrival.session = portSession }
            request.proxied = arrival
            // Kept alive as HTTP/1.1 says (libevent closed an absolute-form request's connection after its answer);
            // a client's `Proxy-Connection: close` still closes it.
            if request.header("Proxy-Connection")?.lowercased() != "close" { stubd_request_keep_alive_as_http11(req) }
            request.headers.removeAll { $0.name.equalsIgnoringCase("Proxy-Authorization") || $0.name.equalsIgnoringCase("Proxy-Connection") }
            return nil
        case .interception:
            guard let fd = evhttp_request_get_connection(req).flatMap({ evhttp_connection_get_bufferevent($0) }).map({ bufferevent_getfd($0) }),
                  let port = System.peerPort(fd), let arrival = interception?.arrival(peerPort: port) else {
                return Self.proxyRefusal(status: 421, "this connection came through no tunnel of stubd's proxy")
            }
            var inTunnel = arrival
            inTunnel.isConnect = false
            inTunnel.inTunnel = true
            request.proxied = inTunnel
            return nil
        }
    }

    private static func proxyRefusal(status: Int, _ message: String) -> PreparedReply {
        PreparedReply(status: status, headers: [NameValue("Content-Type", "text/plain; charset=utf-8")], body: Array((message + "\n").utf8))
    }

    /// A later completion, on this loop's thread (from the mailbox): carried out if the request
    /// is still awaiting one; a second completion, or one for a request already answered, is
    /// ignored.
    func complete(_ handle: ReplyHandle, plan: ReplyPlan, listener: (any ReplyListener)?) {
        switch awaiting.removeValue(forKey: handle.token) {
        case .http1(let req)?: carryOut(plan, on: req, start: handle.start, listener: listener)
        case .http2(let connection, let stream)?: connection.complete(stream: stream, plan: plan, start: handle.start, listener: listener)
        case nil: return
        }
    }

    /// Waits out the plan's delay on a timer, or writes now.
    private func carryOut(_ plan: ReplyPlan, on req: OpaquePointer, start: UInt64, listener: (any ReplyListener)?) {
        if let delay = plan.delay, delay > 0 {
            schedule(PendingExchange(request: req, plan: plan, start: start, listener: listener, kind: .deliver), after: delay)
        } else {
            execute(req, plan, start: start, listener: listener)
        }
    }

    func execute(_ req: OpaquePointer, _ plan: ReplyPlan, start: UInt64, listener: (any ReplyListener)?) {
        if plan.alreadySent {
            listener?.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            return
        }
        switch plan.content {
        case .response(let reply):
            if let dribble = plan.dribble, !plan.headOnly, !reply.body.isEmpty {
                ScriptPlayer.start(.dribble(reply, dribble), extraHeaders: plan.extraHeaders, headOnly: false, on: req, worker: self, start: start,
                                   listener: nil)
            } else {
                Reply.send(reply, extraHeaders: plan.extraHeaders, on: req, headOnly: plan.headOnly, oneTLSRecord: servesTLS && connections(of: req)?.isTLS == true,
                           date: dateHeader.current(base: base))
            }
        case .stream(let stream):
            StreamWriter.start(stream, extraHeaders: plan.extraHeaders, headOnly: plan.headOnly, on: req, worker: self)
        case .script(let script):
            // Its listener hears when the script is over.
            ScriptPlayer.start(script, extraHeaders: plan.extraHeaders, headOnly: plan.headOnly, on: req, worker: self, start: start, listener: listener)
            return
        case .fault(let fault, let sending):
            LibeventFaultInjector.inject(fault, on: req, worker: self, extraHeaders: plan.extraHeaders, sending: sending)
        case .upgrade(let upgrade):
            // The listener hears when the conversation ends (the peer tells it).
            WebSocketConnection.start(upgrade, on: req, worker: self)
            return
        case .tunnel(let target):
            Tunnel.start(target, on: req, worker: self, interception: interception)
        }
        if let listener {
            listener.replyFinished(latencySeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    /// Starts an upstream call on this loop for `handle`'s request (see `UpstreamClient.fetch`):
    /// a relayed answer goes to its HTTP/1.1 request, or to its HTTP/2 stream (the handle's
    /// token finds it once the upstream's head arrives: the handler has said `.later` by then).
    func fetch(_ request: UpstreamRequest, for handle: ReplyHandle, then completion: @escaping (UpstreamResponse) -> Void) {
        dnsStarted = true
        let target: UpstreamCall.RelayTarget = handle.request.map { .http1($0) } ?? .http2(token: handle.token)
        UpstreamCall.start(request, for: target, on: self, completion: completion)
    }

    /// Starts writing `stream` (a relayed upstream answer) on the HTTP/2 stream that awaits the
    /// completion of the handle with `token`; false when none does any more.
    func relay(_ stream: ReplyStream, token: UInt64) -> Bool {
        guard case .http2(let connection, let id)? = awaiting[token] else { return false }
        return connection.relay(stream, on: id)
    }

    /// Opens a WebSocket to an upstream on this loop (see `UpstreamClient.openWebSocket`).
    func openWebSocket(_ request: UpstreamRequest, messageLimit: Int, then completion: @escaping (UpstreamWebSocketAnswer) -> Void) {
        UpstreamWebSocket.start(request, messageLimit: messageLimit, on: self, completion: completion)
    }

    /// Why an upstream's TLS settings cannot be used.
    struct TLSProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// The OpenSSL context for `tls`: TLS 1.2 or later, peer verification against the system
    /// store or `caFile` (unless `verify` is off).
    func tlsContext(for tls: UpstreamTLS) -> Result<OpaquePointer, TLSProblem> {
        if let context = tlsContexts[tls] { return .success(context) }
        guard let context = SSL_CTX_new(TLS_client_method()) else { return .failure(TLSProblem(description: "TLS: cannot create a context")) }
        stubd_ssl_ctx_min_tls12(context)
        if tls.verify {
            let loaded = tls.caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
            guard loaded == 1 else {
                SSL_CTX_free(context)
                return .failure(TLSProblem(description: "TLS: cannot load the trusted certificates\(tls.caFile.map { " from \($0)" } ?? "")"))
            }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        } else {
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        }
        tlsContexts[tls] = context
        return .success(context)
    }

    func schedule(_ exchange: PendingExchange, after seconds: Double) {
        exchange.worker = self
        exchange.watch = DepartureWatch(exchange.request, exchange: exchange)
        exchange.timer = clev_timer_new(base, onTimer, Unmanaged.passUnretained(exchange).toOpaque())
        inFlight.hold(exchange)
        var delay = System.timeValue(seconds: seconds)
        // libevent measures a new timer from the loop's cached time, which is stale by whatever this
        // iteration has done so far; refresh it so a delay never ends early.
        event_base_update_cache_time(base)
        if exchange.timer == nil || event_add(exchange.timer, &delay) != 0 {
            // No timer (out of memory): act now rather than hold the request forever.
            fire(exchange)
        }
    }

    func fire(_ exchange: PendingExchange) {
        inFlight.letGo(exchange)
        if let timer = exchange.timer { event_free(timer) }
        exchange.timer = nil
        exchange.watch?.end()
        exchange.watch = nil
        switch exchange.kind {
        case .deliver:
            execute(exchange.request, exchange.plan, start: exchange.start, listener: exchange.listener)
        case .closeAfterHang:
            if let connection = evhttp_request_get_connection(exchange.request) {
                LibeventFaultInjector.endHang(connection, request: exchange.request, plan: exchange.plan)
            }
        }
    }
}

private func onRequest(_ req: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let req, let arg else { return }
    Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().handle(req)
}

private func onTimer(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let exchange = Unmanaged<PendingExchange>.fromOpaque(arg).takeUnretainedValue()
    exchange.worker?.fire(exchange)
}

private func onDrainTick(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().drainTick()
}

private func onStop(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    event_base_loopbreak(Unmanaged<Worker>.fromOpaque(arg).takeUnretainedValue().base)
}
