import CLibevent
import Foundation
import StubdSystem
import Synchronization

/// The libevent engine: runs `workers` event loops on their own threads, all accepting from
/// the same listening sockets (HTTP, HTTPS).
///
/// `start()` returns once every loop is accepting, so a caller can connect immediately; `stop()`
/// breaks every loop, waits for the threads and frees all libevent state. Thread-safe.
public final class HTTPEngine: Engine, SessionProxyPorts {
    private struct LoopHandle: @unchecked Sendable {
        /// The worker's stop event; `event_active` on it is safe from any thread.
        let stopEvent: OpaquePointer
        /// The worker's mailbox, for a drain (safe from any thread).
        let mailbox: LoopMailbox
    }

    private struct State {
        var listeners: [Listener] = []
        var loops: [LoopHandle] = []
        var finished: [DispatchSemaphore] = []
        /// Sessions' own proxy ports (`openProxyPort`), by port.
        var sessionPorts: [Int: (listener: Listener, session: String)] = [:]
    }

    private let configuration: EngineConfiguration
    private let handler: any EngineHandler
    private let state = Mutex(State())

    /// An engine for `configuration` giving every request to `handler`; nothing is bound until `start`.
    public init(configuration: EngineConfiguration, handler: any EngineHandler) {
        self.configuration = configuration
        self.handler = handler
        self.loopLag = LoopLag(loops: max(1, configuration.workers))
    }

    /// What this engine can receive and whether it can encrypt: HTTP/1.1 with libevent 2.1's
    /// nine methods, plain or over TLS.
    public static let capabilities = EngineCapabilities.libevent

    /// The same, for a value typed as `any Engine`.
    public var capabilities: EngineCapabilities { Self.capabilities }

    /// Each loop's lag, measured by a timer on it.
    public let loopLag: LoopLag?

    /// Binds (HTTP, HTTPS) and starts the loops; returns the bound ports. Nothing is served when
    /// the certificate or either port cannot be used.
    public func start() throws(EngineError) -> BoundPorts {
        HTTPEngine.prepareProcess()
        let tls = try configuration.https.map { settings throws(EngineError) in try TLSServerContext(settings, http2: configuration.http2) }
        var bound: [Listener] = []
        var listeners: [(fd: Int32, tls: TLSServerContext?, kind: Worker.FrontKind)] = []
        var ports = BoundPorts()
        let interception = try configuration.proxy.map { settings throws(EngineError) in try Interception(settings: settings, http2: configuration.http2) }
        /// A bound socket, and its loopback twin (the other address family's) when it has one.
        func serve(_ listener: Listener, tls: TLSServerContext?, kind: Worker.FrontKind = .direct, host: String = configuration.host) {
            bound.append(listener)
            listeners.append((listener.fd, tls, kind))
            if let twin = Self.loopbackTwin(of: listener, host: host) {
                bound.append(twin)
                listeners.append((twin.fd, tls, kind))
            }
        }
        do throws(EngineError) {
            if configuration.servesHTTP {
                // Nagle off here too: a reply larger than one segment left its last segment waiting
                // for the client's delayed ACK, 40 ms per 64 KiB answer on a keep-alive connection.
                let listener = try Listener.bind(host: configuration.host, port: configuration.port, noDelay: true)
                serve(listener, tls: nil)
                ports.http = listener.port
            }
            if let https = configuration.https, let tls {
                let listener = try Listener.bind(host: configuration.host, port: https.port, flag: "--https-port", noDelay: true)
                serve(listener, tls: tls)
                ports.https = listener.port
            }
            if let proxy = configuration.proxy, let interception {
                // An open relay on a LAN is not offered: another address needs the password.
                guard proxy.password != nil || ["127.0.0.1", "::1", "localhost"].contains(proxy.host) else {
                    throw .proxyWithoutPassword(host: proxy.host)
                }
                let listener = try Listener.bind(host: proxy.host, port: proxy.port, flag: "--proxy-port", noDelay: true)
                serve(listener, tls: nil, kind: .proxy(session: nil), host: proxy.host)
                ports.proxy = listener.port
                // The interception fronts, TLS and plain, on loopback: reached only through tunnels.
                let front = try Listener.bind(host: "127.0.0.1", port: 0, flag: "--proxy-port", noDelay: true)
                bound.append(front)
                listeners.append((front.fd, interception.context, .interception))
                interception.port = front.port
                let plain = try Listener.bind(host: "127.0.0.1", port: 0, flag: "--proxy-port", noDelay: true)
                bound.append(plain)
                listeners.append((plain.fd, nil, .interception))
                interception.plainPort = plain.port
                ports.interception = [front.port, plain.port]
            }
        } catch {
            for listener in bound { listener.close() }
            throw error
        }
        let sockets = UncheckedListeners(value: listeners, interception: interception)
        var loops: [LoopHandle] = []
        var finished: [DispatchSemaphore] = []
        var failure: EngineError?
        let numbers = ConnectionNumbers()
        for index in 0..<max(1, configuration.workers) {
            let ready = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<LoopHandle, EngineError>?>(nil)
            let configuration = configuration
            let handler = handler
            let lag = loopLag
            let thread = Thread {
                do {
                    let worker = try Worker(listeners: sockets.value, configuration: configuration, handler: handler, numbers: numbers,
                                            interception: sockets.interception)
                    if let lag { worker.measureLag(lag, loop: index) }
                    outcome.withLock { $0 = .success(LoopHandle(stopEvent: worker.stopEvent!, mailbox: worker.mailbox)) }
                    ready.signal()
                    worker.run()
                } catch let error as EngineError {
                    outcome.withLock { $0 = .failure(error) }
                    ready.signal()
                } catch {
                    outcome.withLock { $0 = .failure(.libevent(operation: "start a worker (\(error))")) }
                    ready.signal()
                }
                done.signal()
            }
            thread.name = "stubd-loop-\(index)"
            thread.start()
            ready.wait()
            switch outcome.withLock({ $0 })! {
            case .success(let handle):
                loops.append(handle)
                finished.append(done)
            case .failure(let error):
                failure = error
            }
            if failure != nil { break }
        }
        let snapshot = (loops, finished)
        state.withLock { $0 = State(listeners: bound, loops: snapshot.0, finished: snapshot.1) }
        if let failure {
            stop()
            throw failure
        }
        return ports
    }

    /// Bound to `127.0.0.1`, the same port on `[::1]` too: `http://[::1]:P` and a `localhost` that
    /// resolves to `::1` first reach the server the banner names. Nil when this machine has no
    /// IPv6 loopback or the port is taken there (the IPv4 one still serves).
    static func loopbackTwin(of listener: Listener, host: String) -> Listener? {
        guard host == "127.0.0.1" else { return nil }
        return try? Listener.bind(host: "::1", port: listener.port, noDelay: true)
    }

    /// Stops every loop and waits for their threads; in-flight delayed replies are dropped and
    /// their connections closed. Idempotent.
    public func stop() {
        let current = state.withLock { state -> State in
            let current = state
            state = State()
            return current
        }
        for loop in current.loops { event_active(loop.stopEvent, EV_READ, 0) }
        for done in current.finished { done.wait() }
        for listener in current.listeners + current.sessionPorts.values.map(\.listener) { listener.close() }
    }

    /// Sessions' own proxy ports open at once, at most.
    public static let sessionPortLimit = 64

    /// Opens a forward-proxy port on the proxy's address whose every request belongs to
    /// `session` (the credentials' user is not read; a `--proxy-password` still is): every loop
    /// accepts from it before this returns.
    public func openProxyPort(session: String) throws(EngineError) -> Int {
        guard let proxy = configuration.proxy else { throw .proxyPortRefused("stubd serves no proxy: start it with --proxy-port PORT") }
        let current = state.withLock { $0 }
        guard !current.loops.isEmpty else { throw .proxyPortRefused("stubd is not serving") }
        guard current.sessionPorts.count < Self.sessionPortLimit else {
            throw .proxyPortRefused("\(Self.sessionPortLimit) session proxy ports are open; close some (DELETE /__stubd/proxy/ports/PORT, or end their sessions)")
        }
        let listener = try Listener.bind(host: proxy.host, port: 0, flag: "--proxy-port", noDelay: true)
        let added = DispatchSemaphore(value: 0)
        for loop in current.loops { loop.mailbox.change(.addProxy(fd: listener.fd, session: session), then: added) }
        for _ in current.loops { _ = added.wait(timeout: .now() + 5) }
        state.withLock { $0.sessionPorts[listener.port] = (listener, session) }
        return listener.port
    }

    /// Closes a session's proxy port and its connections; false when no such port is open.
    @discardableResult
    public func closeProxyPort(_ port: Int) -> Bool {
        let (found, loops) = state.withLock { state in (state.sessionPorts.removeValue(forKey: port), state.loops) }
        guard let found else { return false }
        let removed = DispatchSemaphore(value: 0)
        for loop in loops { loop.mailbox.change(.remove(fd: found.listener.fd), then: removed) }
        for _ in loops { _ = removed.wait(timeout: .now() + 5) }
        found.listener.close()
        return true
    }

    /// The sessions' own proxy ports open now: port and session.
    public var sessionProxyPorts: [(port: Int, session: String)] {
        state.withLock { $0.sessionPorts.map { ($0.key, $0.value.session) } }.sorted { $0.port < $1.port }
    }

    /// Every loop stops accepting and finishes what it has in flight, for up to `grace` seconds
    /// each (its own timer ends it then), and this waits for their threads. Idempotent, like `stop`.
    public func drain(grace: Double) {
        let current = state.withLock { state -> State in
            let current = state
            state = State()
            return current
        }
        let stoppedAccepting = DispatchSemaphore(value: 0)
        for loop in current.loops { loop.mailbox.drain(grace: grace, then: stoppedAccepting) }
        // Once no loop accepts, new connections are refused outright instead of waiting in the backlog.
        var all = true
        for _ in current.loops where stoppedAccepting.wait(timeout: .now() + 2) == .timedOut { all = false }
        if all { for listener in current.listeners { listener.stopListening() } }
        for done in current.finished { done.wait() }
        for listener in current.listeners + current.sessionPorts.values.map(\.listener) { listener.close() }
    }

    /// The listening sockets handed to the loop threads (a TLS context is shared by all loops).
    private struct UncheckedListeners: @unchecked Sendable {
        let value: [(fd: Int32, tls: TLSServerContext?, kind: Worker.FrontKind)]
        let interception: Interception?
    }

    /// Once per process: libevent locking (so cross-thread stop works) and SIGPIPE ignored (a
    /// write to a vanished client must be an error, not the end of the server).
    private static let processPrepared: Bool = {
        System.ignore(signal: System.brokenPipeSignal)
        System.raiseOpenFileLimit()
        return evthread_use_pthreads() == 0
    }()

    private static func prepareProcess() {
        _ = processPrepared
    }
}
