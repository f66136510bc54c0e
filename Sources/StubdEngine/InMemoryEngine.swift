import Foundation
public import StubdHTTP
public import StubdSystem
import Synchronization

/// An engine without sockets, for tests (NIOEmbedded and hummingbird's router test mode are the
/// models): the server's handler runs exactly as under `HTTPEngine` — the same `EngineHandler`,
/// `ReplyHandle`, `ReplyPlan`, `ReplyStream` and listeners — but a request is handed in by a test
/// (`InMemoryNetwork.send`) and the reply comes back as a value. Calls stubd makes itself (a
/// forwarded miss, a webhook) go to the network's in-memory upstream instead of a socket, and are
/// kept in order (`InMemoryNetwork.calls`).
///
/// Time is virtual: a delay is not waited out but reported with the reply (`InMemoryReply.delay`)
/// and as the listener's latency; a webhook's delay is kept with its call. What the engine
/// itself does on the wire — framing, TLS, the connection budget, fault bytes — is `HTTPEngine`'s
/// and tested over sockets; here a fault is reported by name.
///
/// One request at a time: `send` decides, waits for a later completion (an upstream's answer, an
/// admin change answered from its queue), carries the plan out, then runs what that queued (a
/// webhook and its retries) before it returns.
public final class InMemoryEngine: Engine, ReplyCarrier, @unchecked Sendable {
    private let handler: any EngineHandler
    private let network: InMemoryNetwork
    private let configuration: EngineConfiguration
    /// The test's thread is this engine's loop: one request at a time.
    private let loop = NSLock()
    private let state = Mutex(State())
    private let changed = NSCondition()

    private struct State {
        var lastToken: UInt64 = 0
        var awaiting: [UInt64: Completion?] = [:]
        var tasks: [@Sendable () -> Void] = []
        var stopped = false
        var connections = 0
    }

    private struct Completion: @unchecked Sendable {
        let plan: ReplyPlan
        let listener: (any ReplyListener)?
    }

    /// An engine serving `handler` on `network`; `start` attaches it.
    init(configuration: EngineConfiguration, handler: any EngineHandler, network: InMemoryNetwork) {
        self.configuration = configuration
        self.handler = handler
        self.network = network
    }

    /// libevent's methods, as `HTTPEngine` receives them; never TLS.
    public var capabilities: EngineCapabilities { EngineCapabilities(methods: HTTPMethods.names, tls: false) }

    /// Attaches to the network; the port reported is the configured one (8080 for 0): nothing is bound.
    public func start() throws(EngineError) -> BoundPorts {
        network.attach(self)
        return BoundPorts(http: configuration.port == 0 ? 8080 : configuration.port)
    }

    /// Later completions are dropped from now on.
    public func stop() {
        state.withLock { $0.stopped = true }
        network.detach(self)
    }

    /// Not measured: there is no loop to be late.
    public var loopLag: LoopLag? { nil }

    // MARK: Serving one request

    /// Answers `request` as the handler decides, waiting at most `timeout` seconds for a later
    /// completion (nil when none came).
    func respond(to request: IncomingRequest, timeout: Double) -> InMemoryReply? {
        loop.lock()
        defer { loop.unlock() }
        var request = request
        if request.peer.isEmpty { request.peer = "127.0.0.1" }
        if request.connection == nil {
            let number = state.withLock { state in
                state.connections += 1
                return state.connections
            }
            request.connection = ConnectionUse(number: number, request: 1)
        }
        if let refusal = ProtocolChecks.refusal(for: request) {
            return InMemoryReply(refusal, plan: ReplyPlan(content: .response(refusal), extraHeaders: [NameValue("Connection", "close")]))
        }
        let token = state.withLock { state -> UInt64 in
            state.lastToken &+= 1
            state.awaiting[state.lastToken] = .some(nil)
            return state.lastToken
        }
        let handle = ReplyHandle(carrier: self, request: nil, token: token, start: 0)
        let completion: Completion
        switch handler.handle(request, reply: handle) {
        case .reply(let plan, let listener):
            state.withLock { _ = $0.awaiting.removeValue(forKey: token) }
            completion = Completion(plan: plan, listener: listener)
        case .later:
            guard let later = awaitCompletion(token, timeout: timeout) else { return nil }
            completion = later
        }
        let reply = carryOut(completion.plan, listener: completion.listener)
        runTasks()
        return reply
    }

    /// Runs queued work (upstream answers) until `token` is completed, then waits for a
    /// completion from another thread.
    private func awaitCompletion(_ token: UInt64, timeout: Double) -> Completion? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            runTasks()
            if let done = state.withLock({ state -> Completion?? in
                guard case .some(.some(let completion)) = state.awaiting[token] else { return nil }
                state.awaiting.removeValue(forKey: token)
                return .some(completion)
            }) {
                return done
            }
            changed.lock()
            let hasWork = state.withLock { state -> Bool in
                if !state.tasks.isEmpty { return true }
                if case .some(.none) = state.awaiting[token] { return false }
                return true
            }
            if !hasWork, !changed.wait(until: deadline) {
                changed.unlock()
                state.withLock { _ = $0.awaiting.removeValue(forKey: token) }
                return nil
            }
            changed.unlock()
        }
    }

    private func runTasks() {
        while let task = state.withLock({ $0.tasks.isEmpty ? nil : $0.tasks.removeFirst() }) {
            task()
        }
    }

    private func enqueue(_ task: @escaping @Sendable () -> Void) {
        state.withLock { $0.tasks.append(task) }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// The plan as a value: the head and body a client would get, or the fault, or the stream.
    private func carryOut(_ plan: ReplyPlan, listener: (any ReplyListener)?) -> InMemoryReply {
        let reply: InMemoryReply
        switch plan.content {
        case .response(let prepared):
            reply = InMemoryReply(prepared, plan: plan)
        case .fault(let fault, let sending):
            reply = InMemoryReply(fault: fault, sending: sending, plan: plan)
        case .stream(let stream):
            let reader = InMemoryStream(stream)
            reply = InMemoryReply(stream: reader, plan: plan)
            reader.take(stream.attach(reader))
        case .upgrade(let upgrade):
            // No socket to take over: the head as it would go, and the conversation ends at once.
            reply = InMemoryReply(PreparedReply(status: 101, headers: upgrade.headers, body: []), plan: plan)
            upgrade.peer.ended(code: 1001, reason: "the in-memory engine holds no conversation", by: .serverStopped)
        case .tunnel:
            // No socket to join: the head as it would go, and nothing after it.
            reply = InMemoryReply(PreparedReply(status: 200, headers: [], body: []), plan: plan)
        case .script(let script):
            // Played in virtual time: every step at once, its pauses reported with it.
            reply = InMemoryReply(script: script, plan: plan)
            listener?.replyFinished(latencySeconds: (plan.delay ?? 0) + script.duration)
            return reply
        }
        listener?.replyFinished(latencySeconds: plan.delay ?? 0)
        return reply
    }

    // MARK: ReplyCarrier

    func complete(_ handle: ReplyHandle, plan: ReplyPlan, listener: (any ReplyListener)?) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped, case .some(.none) = state.awaiting[handle.token] else { return false }
            state.awaiting[handle.token] = .some(Completion(plan: plan, listener: listener))
            return true
        }
        guard accepted else { return }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    func onLoop(_ work: @escaping @Sendable () -> Void) {
        enqueue(work)
    }

    func fetch(_ upstream: UpstreamRequest, for handle: ReplyHandle, then: @escaping (UpstreamResponse) -> Void) {
        let network = self.network
        let then = UnsafeSendable(then)
        enqueue { then.value(network.call(upstream, kind: .fetch, delay: nil)) }
    }

    /// No sockets in memory: an upstream WebSocket cannot be opened (the client gets a 502).
    func openWebSocket(_ upstream: UpstreamRequest, messageLimit: Int, for handle: ReplyHandle, then: @escaping (UpstreamWebSocketAnswer) -> Void) {
        let then = UnsafeSendable(then)
        enqueue { then.value(.failed("the in-memory engine relays no WebSocket")) }
    }

    func send(_ upstream: UpstreamRequest, after seconds: Double, then: @escaping (UpstreamResponse) -> Void) {
        let network = self.network
        let then = UnsafeSendable(then)
        enqueue { then.value(network.call(upstream, kind: .send, delay: seconds)) }
    }

    func resolve(_ host: String, then: @escaping (AddressLookup) -> Void) {
        let network = self.network
        let then = UnsafeSendable(then)
        enqueue { then.value(NetworkAddress(literal: host).map { .found([$0]) } ?? network.resolve(host)) }
    }
}

/// A value the in-memory engine moves between its own calls on one thread.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// What a test's in-memory stubd is reached through: `send` hands it a request, `upstream`
/// answers every call stubd makes itself (forwarded misses, webhooks), and `calls` lists them.
/// Give `factory` to `StubdServer.Configuration.makeEngine`.
public final class InMemoryNetwork: Sendable {
    /// How a call stubd made itself was made.
    public enum CallKind: Sendable, Equatable {
        /// For a client's request, its answer relayed back (a forwarded miss).
        case fetch
        /// For stubd itself, after the reply (a webhook).
        case send
    }

    /// One call stubd made, with the answer it got.
    public struct Call: Sendable {
        /// The request as stubd sent it.
        public let request: UpstreamRequest
        /// Forwarded or own.
        public let kind: CallKind
        /// The delay it was sent after (a webhook's), virtual.
        public let delay: Double?
        /// What the upstream answered.
        public let response: UpstreamResponse
    }

    private let upstream: @Sendable (UpstreamRequest) -> UpstreamResponse
    /// What a host name resolves to in memory (address literals resolve to themselves).
    let resolve: @Sendable (String) -> AddressLookup
    private let engine = Mutex<InMemoryEngine?>(nil)
    private let made = Mutex<[Call]>([])

    /// A network whose upstream answers as `upstream` says (by default: nothing listens, as a
    /// refused connection), where every name resolves as `resolve` says (by default to 192.0.2.1,
    /// a documentation address that is no machine's).
    public init(upstream: @escaping @Sendable (UpstreamRequest) -> UpstreamResponse = { _ in .failed("connection refused (in memory)") },
                resolve: @escaping @Sendable (String) -> AddressLookup = { _ in .found([NetworkAddress(bytes: [192, 0, 2, 1])!]) }) {
        self.upstream = upstream
        self.resolve = resolve
    }

    /// Makes the engine `StubdServer` serves with.
    public var factory: EngineFactory {
        { configuration, handler in InMemoryEngine(configuration: configuration, handler: handler, network: self) }
    }

    /// Sends `request` to the running server and returns its reply, after any later completion
    /// (at most `timeout` seconds) and after the calls it caused. Nil when no server runs or no
    /// completion came.
    public func send(_ request: IncomingRequest, timeout: Double = 10) -> InMemoryReply? {
        engine.withLock { $0 }?.respond(to: request, timeout: timeout)
    }

    /// Every call stubd made, in order.
    public var calls: [Call] { made.withLock { $0 } }

    func attach(_ engine: InMemoryEngine) { self.engine.withLock { $0 = engine } }

    func detach(_ engine: InMemoryEngine) {
        self.engine.withLock { if $0 === engine { $0 = nil } }
    }

    func call(_ request: UpstreamRequest, kind: CallKind, delay: Double?) -> UpstreamResponse {
        var response = upstream(request)
        // Nothing is relayed in memory: the whole answer comes back at once.
        if case .relayed(let status, let headers, let body, _) = response { response = .answered(status: status, headers: headers, body: body ?? []) }
        made.withLock { $0.append(Call(request: request, kind: kind, delay: delay, response: response)) }
        return response
    }
}

/// A reply as the in-memory engine carried it out.
public struct InMemoryReply: Sendable {
    /// The status sent (nil for a fault, which sends none of its own).
    public let status: Int?
    /// The headers as the engine sends them: the reply's, then the plan's extra ones, then
    /// `Content-Length` (stubd adds `Date` on the wire).
    public let headers: [NameValue]
    /// The body (empty for HEAD, or for a stream: read it from `stream`).
    public let body: [UInt8]
    /// The fault carried out instead of a reply.
    public let fault: Fault?
    /// Whether a fault that sends no byte went out as a response instead (a route's fault step:
    /// `FaultSending.beforeStatus` or `.cutShort`).
    public var faultSentAsResponse = false
    /// The stream, for a streamed reply.
    public let stream: InMemoryStream?
    /// The delay the reply was sent after (virtual).
    public let delay: Double?
    /// The dribble it was paced by.
    public let dribble: Dribble?
    /// The script a timed reply was played from (its steps' pauses and its ending), for a stream.
    public var script: StreamScript?

    init(_ reply: PreparedReply, plan: ReplyPlan) {
        status = reply.status
        headers = reply.headers + plan.extraHeaders + (reply.contentLength.map { [NameValue("Content-Length", String($0))] } ?? [])
        body = plan.headOnly ? [] : reply.body
        (fault, stream, delay, dribble) = (nil, nil, plan.delay, plan.dribble)
    }

    init(fault: Fault, sending: FaultSending, plan: ReplyPlan) {
        (status, headers, body) = (nil, plan.extraHeaders, [])
        (self.fault, stream, delay, dribble) = (fault, nil, plan.delay, nil)
        faultSentAsResponse = sending.replacesNoByte(fault)
    }

    init(script: StreamScript, plan: ReplyPlan) {
        status = script.status
        headers = script.headers + plan.extraHeaders
        body = plan.headOnly ? [] : script.body
        (fault, stream, delay, dribble) = (nil, nil, plan.delay, nil)
        self.script = script
    }

    init(stream reader: InMemoryStream, plan: ReplyPlan) {
        status = reader.stream.status
        headers = reader.stream.headers + plan.extraHeaders
        (body, fault, stream, delay, dribble) = ([], nil, reader, plan.delay, nil)
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The first header named `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringCase(name) }?.value
    }
}

/// The client end of a streamed reply in memory: what the producer wrote, as it arrives.
public final class InMemoryStream: StreamCarrier, @unchecked Sendable {
    let stream: ReplyStream
    private let received = NSCondition()
    private var bytes: [UInt8] = []

    init(_ stream: ReplyStream) {
        self.stream = stream
    }

    /// Everything received so far.
    public var body: [UInt8] {
        received.lock()
        defer { received.unlock() }
        return bytes
    }

    /// Waits up to `timeout` seconds until what was received contains `text` or the stream
    /// ended; returns whether it does.
    public func wait(for text: String, timeout: Double = 5) -> Bool {
        wait(timeout: timeout) { $0.contains(text) }
    }

    /// Waits up to `timeout` seconds until what was received (as UTF-8 text) satisfies
    /// `condition` or the stream ended; returns whether it does.
    public func wait(timeout: Double = 5, until condition: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        received.lock()
        defer { received.unlock() }
        while !condition(String(decoding: bytes, as: UTF8.self)) {
            if stream.ending != nil || !received.wait(until: deadline) {
                return condition(String(decoding: bytes, as: UTF8.self))
            }
        }
        return true
    }

    /// The client goes away (`.clientLeft`).
    public func close() {
        stream.end(.clientLeft)
    }

    func take(_ work: ReplyStream.Work) {
        received.lock()
        for piece in work.pieces { bytes += piece }
        received.broadcast()
        received.unlock()
        if work.overflowed {
            stream.end(.slowReader)
        } else if work.finish {
            stream.end(.finished)
        } else if !work.pieces.isEmpty {
            stream.drained()
        }
    }

    func post(flush stream: ReplyStream) {
        take(stream.takeWork())
    }
}
