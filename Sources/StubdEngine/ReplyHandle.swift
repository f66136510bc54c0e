import CLibevent
import Dispatch
import StubdSystem
import Synchronization

/// The engine's promise to answer one request, handed to the `EngineHandler` with it; used
/// when the handler decides `.later`.
///
/// Complete it exactly once, from any thread (the request's own loop included): the completion
/// is queued in the loop's mailbox and the loop is woken with `event_active` (the same hop as
/// stopping), so it is carried out at the loop's next turn, never inside the caller. A
/// completion that arrives after the server stopped is dropped. The C request pointer inside never leaves the engine and is dereferenced only on
/// the loop's thread.
public struct ReplyHandle: @unchecked Sendable {
    /// Who carries the reply out: the request's loop (`LoopMailbox`) or an `InMemoryEngine`.
    let carrier: any ReplyCarrier
    /// The libevent request (nil in memory).
    let request: OpaquePointer?
    let token: UInt64
    let start: UInt64

    /// Carries `plan` out; `listener` hears when it is done (for the journal and the log line).
    public func complete(_ plan: ReplyPlan, listener: (any ReplyListener)? = nil) {
        carrier.complete(self, plan: plan, listener: listener)
    }

    /// Runs `work` on this request's loop at its next turn (from any thread): a decision made on
    /// another thread comes back to the loop to call `upstream.fetch`.
    public func onLoop(_ work: @escaping @Sendable () -> Void) {
        carrier.onLoop(work)
    }

    /// The calls to other servers this request's loop makes for it (and for stubd itself).
    public var upstream: UpstreamClient { UpstreamClient(handle: self) }
}

/// What carries a `ReplyHandle`'s reply out — a serving loop's mailbox, or the in-memory engine —
/// and the upstream calls made from the request's loop. Each call may come from any thread unless
/// it says otherwise.
protocol ReplyCarrier: AnyObject, Sendable {
    /// Carries out the later answer to `handle`'s request (once; a second is ignored).
    func complete(_ handle: ReplyHandle, plan: ReplyPlan, listener: (any ReplyListener)?)
    /// Runs `work` on the request's loop at its next turn (from any thread).
    func onLoop(_ work: @escaping @Sendable () -> Void)
    /// Calls an upstream for `handle`'s request (on the request's loop).
    func fetch(_ upstream: UpstreamRequest, for handle: ReplyHandle, then: @escaping (UpstreamResponse) -> Void)
    /// Opens a WebSocket to an upstream for `handle`'s request (on the request's loop).
    func openWebSocket(_ upstream: UpstreamRequest, messageLimit: Int, for handle: ReplyHandle, then: @escaping (UpstreamWebSocketAnswer) -> Void)
    /// Sends a request of stubd's own after `seconds` (on the request's loop).
    func send(_ upstream: UpstreamRequest, after seconds: Double, then: @escaping (UpstreamResponse) -> Void)
    /// Resolves a host name for `handle`'s request (on the request's loop).
    func resolve(_ host: String, then: @escaping (AddressLookup) -> Void)
}

/// Where a `ReplyStream`'s writes go once its head is out: the loop's mailbox, or an in-memory
/// reader. Called from any thread, once per batch of writes.
protocol StreamCarrier: AnyObject, Sendable {
    /// Sends `stream`'s queued pieces.
    func post(flush stream: ReplyStream)
}

/// A loop's inbox for completions from other threads. Owned by its `Worker`; the worker pointer
/// is only followed on the loop's own thread.
final class LoopMailbox: ReplyCarrier, StreamCarrier, @unchecked Sendable {
    private enum Item {
        case completion(ReplyHandle, ReplyPlan, (any ReplyListener)?)
        case flush(ReplyStream)
        case work(@Sendable () -> Void)
        case drain(Double, DispatchSemaphore)
        case front(FrontChange, DispatchSemaphore)
    }

    private struct Queue {
        var items: [Item] = []
        var closed = false
    }

    let owner: ThreadIdentity
    private unowned(unsafe) let worker: Worker
    private var event: OpaquePointer?
    private let queue = Mutex(Queue())

    /// Created on the loop's thread, by its worker.
    init(worker: Worker, base: OpaquePointer) {
        owner = .current
        self.worker = worker
        event = event_new(base, -1, 0, onMailbox, Unmanaged.passUnretained(self).toOpaque())
    }

    func complete(_ handle: ReplyHandle, plan: ReplyPlan, listener: (any ReplyListener)?) {
        // Queued even on the loop's own thread: the handler may still be deciding, and the
        // request is carried out only once it has returned `.later`.
        // event_active runs under the queue's lock, so `close()` cannot free the event between the
        // check and the wake-up.
        queue.withLock { queue in
            guard !queue.closed else { return }
            queue.items.append(.completion(handle, plan, listener))
            event_active(event, EV_READ, 0)
        }
    }

    /// Wakes the loop to send what `stream` has queued; from any thread, the loop's own included
    /// (the pieces then go at the next turn of the loop, never inside the writer's call).
    func post(flush stream: ReplyStream) {
        queue.withLock { queue in
            guard !queue.closed else { return }
            queue.items.append(.flush(stream))
            event_active(event, EV_READ, 0)
        }
    }

    func onLoop(_ work: @escaping @Sendable () -> Void) { post(work) }

    /// A front added to or removed from the loop (a session's proxy port), from any thread;
    /// `done` is signalled once the loop has made the change.
    func change(_ change: FrontChange, then done: DispatchSemaphore) {
        queue.withLock { queue in
            guard !queue.closed else {
                _ = done.signal()
                return
            }
            queue.items.append(.front(change, done))
            event_active(event, EV_READ, 0)
        }
    }

    /// Asks the loop to stop accepting and finish what it has in flight within `grace` seconds
    /// (`Worker.beginDrain`), from any thread; `accepting` is signalled once it accepts no more.
    func drain(grace: Double, then accepting: DispatchSemaphore) {
        queue.withLock { queue in
            guard !queue.closed else {
                _ = accepting.signal()
                return
            }
            queue.items.append(.drain(grace, accepting))
            event_active(event, EV_READ, 0)
        }
    }

    /// Runs `work` on the loop at its next turn (a WebSocket send from another thread).
    func post(_ work: @escaping @Sendable () -> Void) {
        queue.withLock { queue in
            guard !queue.closed else { return }
            queue.items.append(.work(work))
            event_active(event, EV_READ, 0)
        }
    }

    func fetch(_ upstream: UpstreamRequest, for handle: ReplyHandle, then: @escaping (UpstreamResponse) -> Void) {
        precondition(owner.isCurrent, "UpstreamClient.fetch is called on the request's loop, while handling it")
        worker.fetch(upstream, for: handle, then: then)
    }

    func openWebSocket(_ upstream: UpstreamRequest, messageLimit: Int, for handle: ReplyHandle, then: @escaping (UpstreamWebSocketAnswer) -> Void) {
        precondition(owner.isCurrent, "UpstreamClient.openWebSocket is called on the request's loop, while handling it")
        worker.openWebSocket(upstream, messageLimit: messageLimit, then: then)
    }

    func send(_ upstream: UpstreamRequest, after seconds: Double, then: @escaping (UpstreamResponse) -> Void) {
        precondition(owner.isCurrent, "UpstreamClient.send is called on the request's loop")
        worker.send(upstream, after: seconds, then: then)
    }

    func resolve(_ host: String, then: @escaping (AddressLookup) -> Void) {
        precondition(owner.isCurrent, "UpstreamClient.resolve is called on the request's loop")
        worker.resolve(host, then: then)
    }

    fileprivate func drain() {
        let items = queue.withLock { queue in
            defer { queue.items.removeAll() }
            return queue.items
        }
        for item in items {
            switch item {
            case .completion(let handle, let plan, let listener): worker.complete(handle, plan: plan, listener: listener)
            case .flush(let stream): worker.flush(stream)
            case .work(let work): work()
            case .drain(let grace, let accepting):
                worker.beginDrain(grace: grace)
                _ = accepting.signal()
            case .front(let change, let done):
                switch change {
                case .addProxy(let fd, let session): try? worker.addFront(fd: fd, tls: nil, kind: .proxy(session: session))
                case .remove(let fd): worker.removeFront(fd: fd)
                }
                _ = done.signal()
            }
        }
    }

    /// Refuses later completions and frees the event; on the loop's thread, at shutdown.
    func close() {
        queue.withLock { queue in
            queue.closed = true
            queue.items.removeAll()
            if let event { event_free(event) }
            event = nil
        }
    }
}

private func onMailbox(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<LoopMailbox>.fromOpaque(arg).takeUnretainedValue().drain()
}

/// A change to a loop's fronts, made on the loop (`LoopMailbox.change`).
enum FrontChange: Sendable {
    /// Accept from the listening socket `fd` as a proxy port of `session`.
    case addProxy(fd: Int32, session: String)
    /// Stop accepting from `fd` and close that front's connections.
    case remove(fd: Int32)
}
