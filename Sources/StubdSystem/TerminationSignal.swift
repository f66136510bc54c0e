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
/// never lost (between `SIG_IGN` and the dispatch source's `resume()` it would be).
public final class TerminationSignal: @unchecked Sendable {
    private let received = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var name = "signal"
    private var sources: [any DispatchSourceSignal] = []

    /// Takes SIGINT and SIGTERM over from their default action (ending the process).
    public init() {
        for (number, label) in System.terminationSignals {
            System.ignore(signal: number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                lock.lock()
                name = label
                lock.unlock()
                received.signal()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Blocks until a signal arrives; returns its name (`SIGTERM`).
    public func wait() -> String {
        received.wait()
        sources.forEach { $0.cancel() }
        lock.lock()
        defer { lock.unlock() }
        return name
    }
}
