import Dispatch
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM without running Swift code in a signal handler.
///
/// Create it before the server announces itself, so a signal sent as soon as the banner appears is
/// never lost (between `SIG_IGN` and the dispatch source's `resume()` it would be). A second
/// signal, while the server drains after the first, ends the process at once (exit 130).
public final class TerminationSignal: @unchecked Sendable {
    private let received = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var name = "signal"
    private var count = 0
    private var sources: [any DispatchSourceSignal] = []
    private var watch: (any DispatchSourceTimer)?

    /// Takes SIGINT and SIGTERM over from their default action (ending the process).
    public init() {
        for (number, label) in System.terminationSignals {
            System.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                let again = count > 0
                count += 1
                if !again { name = label }
                lock.unlock()
                if again { _exit(130) }
                received.signal()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Also ends the wait when process `pid` is gone (checked twice a second): a stubd a test
    /// process started for itself goes with it, even when the test process was killed.
    public func stop(whenProcessEnds pid: Int32) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler { [self] in
            guard !System.processExists(pid) else { return }
            lock.lock()
            name = "the end of process \(pid) (--parent-pid)"
            watch?.cancel()
            lock.unlock()
            received.signal()
        }
        lock.lock()
        watch = timer
        lock.unlock()
        timer.resume()
    }

    /// Blocks until a signal arrives; returns its name (`SIGTERM`).
    public func wait() -> String {
        received.wait()
        lock.lock()
        watch?.cancel()
        lock.unlock()
        lock.lock()
        defer { lock.unlock() }
        return name
    }
}
