import CLibevent
import Foundation
import StubdSystem
import Synchronization

/// Runs `workers` event loops on their own threads, all accepting from one listening socket.
///
/// `start()` returns once every loop is accepting, so a caller can connect immediately; `stop()`
/// breaks every loop, waits for the threads and frees all libevent state. Thread-safe.
final class HTTPEngine: Sendable {
    private struct LoopHandle: @unchecked Sendable {
        /// The worker's stop event; `event_active` on it is safe from any thread.
        let stopEvent: OpaquePointer
    }

    private struct State {
        var listener: Listener?
        var loops: [LoopHandle] = []
        var finished: [DispatchSemaphore] = []
    }

    private let configuration: EngineConfiguration
    private let handler: any EngineHandler
    private let state = Mutex(State())

    init(configuration: EngineConfiguration, handler: any EngineHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// What this engine can receive and whether it encrypts: plain HTTP/1.1 with libevent 2.1's
    /// nine methods.
    static let capabilities = EngineCapabilities(methods: HTTPMethods.names, tls: false)

    /// Binds and starts the loops; returns the bound port.
    func start() throws(EngineError) -> Int {
        HTTPEngine.prepareProcess()
        let listener = try Listener.bind(host: configuration.host, port: configuration.port)
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
            let thread = Thread {
                do {
                    let worker = try Worker(listenerFD: listener.fd, configuration: configuration, handler: handler, numbers: numbers)
                    outcome.withLock { $0 = .success(LoopHandle(stopEvent: worker.stopEvent!)) }
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
        state.withLock { $0 = State(listener: listener, loops: snapshot.0, finished: snapshot.1) }
        if let failure {
            stop()
            throw failure
        }
        return listener.port
    }

    /// Stops every loop and waits for their threads; in-flight delayed replies are dropped and
    /// their connections closed. Idempotent.
    func stop() {
        let current = state.withLock { state -> State in
            let current = state
            state = State()
            return current
        }
        for loop in current.loops { event_active(loop.stopEvent, EV_READ, 0) }
        for done in current.finished { done.wait() }
        current.listener?.close()
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
