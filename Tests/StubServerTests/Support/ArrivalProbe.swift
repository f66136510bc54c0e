import Foundation
import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine

/// An exchange observer a test waits on instead of sleeping: it records every request the server
/// has started to answer and every exchange that has ended.
final class ArrivalProbe: ExchangeObserver, @unchecked Sendable {
    private let condition = NSCondition()
    private var started: [String] = []
    private var ended: [String] = []
    /// Async waiters for an arrival, resumed by `exchangeStarted` (or their timeout).
    private var waiters: [UUID: (path: String, continuation: CheckedContinuation<Bool, Never>)] = [:]

    var observesStarts: Bool { true }

    func exchangeStarted(_ exchange: Exchange) {
        let request = exchange.request
        condition.lock()
        started.append(request.rawPath)
        let arrived = waiters.filter { $0.value.path == request.rawPath }
        for id in arrived.keys { waiters[id] = nil }
        condition.broadcast()
        condition.unlock()
        for waiter in arrived.values { waiter.continuation.resume(returning: true) }
    }

    func exchangeEnded(_ exchange: Exchange) {
        condition.lock()
        ended.append(exchange.request.rawPath)
        condition.broadcast()
        condition.unlock()
    }

    /// How many exchanges for `path` have ended so far.
    func endedCount(of path: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return ended.filter { $0 == path }.count
    }

    /// Waits (at most `timeout` seconds) until the server has received a request for `path`.
    func waitForArrival(of path: String, timeout: Double = 5) -> Bool {
        wait(timeout) { $0.started.contains(path) }
    }

    /// The same wait for async tests: suspends (never blocks a thread of the cooperative pool,
    /// which the request being waited for may itself need — seen on a loaded 2-core CI machine)
    /// until the arrival resumes it, or `timeout` does.
    func arrival(of path: String, timeout: Double = 10) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            if started.contains(path) {
                condition.unlock()
                continuation.resume(returning: true)
                return
            }
            let id = UUID()
            waiters[id] = (path, continuation)
            condition.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                condition.lock()
                let waiter = waiters.removeValue(forKey: id)
                condition.unlock()
                waiter?.continuation.resume(returning: false)
            }
        }
    }

    /// Waits (at most `timeout` seconds) until `count` exchanges for `path` have ended.
    func waitForEnd(of path: String, count: Int = 1, timeout: Double = 5) -> Bool {
        wait(timeout) { $0.ended.filter { $0 == path }.count >= count }
    }

    private func wait(_ timeout: Double, until done: (ArrivalProbe) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(self) {
            if !condition.wait(until: deadline) { return done(self) }
        }
        return true
    }
}
