import Atomics
import CLibevent
import Dispatch
import StubdSystem

/// How late each event loop runs: a repeating timer every `interval` seconds notes how much longer
/// than the interval passed since its last run — the time a loop spent on something else (a long
/// handler, a large write). Read from any thread as the last and the largest figure per loop.
public final class LoopLag: Sendable {
    /// Seconds between measurements.
    public static let interval = 0.25
    private let lastMicroseconds: [ManagedAtomic<Int>]
    private let maxMicroseconds: [ManagedAtomic<Int>]

    init(loops: Int) {
        lastMicroseconds = (0..<max(1, loops)).map { _ in ManagedAtomic(0) }
        maxMicroseconds = (0..<max(1, loops)).map { _ in ManagedAtomic(0) }
    }

    /// Per loop: the lag of its last measurement and the largest since start, in seconds.
    public var seconds: [(last: Double, max: Double)] {
        zip(lastMicroseconds, maxMicroseconds).map { last, max in
            (Double(last.load(ordering: .relaxed)) / 1e6, Double(max.load(ordering: .relaxed)) / 1e6)
        }
    }

    func record(loop: Int, microseconds: Int) {
        guard loop < lastMicroseconds.count else { return }
        lastMicroseconds[loop].store(microseconds, ordering: .relaxed)
        var current = maxMicroseconds[loop].load(ordering: .relaxed)
        while microseconds > current {
            let (exchanged, original) = maxMicroseconds[loop].compareExchange(expected: current, desired: microseconds, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }
}

/// The timer of one loop (confined to it; freed with the worker).
final class LoopLagTimer {
    private let lag: LoopLag
    private let loop: Int
    private var event: OpaquePointer?
    private var last = DispatchTime.now().uptimeNanoseconds

    init(lag: LoopLag, loop: Int, base: OpaquePointer) {
        self.lag = lag
        self.loop = loop
        event = event_new(base, -1, Int16(EV_PERSIST), onLagTick, Unmanaged.passUnretained(self).toOpaque())
        var interval = System.timeValue(seconds: LoopLag.interval)
        event_add(event, &interval)
    }

    fileprivate func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = Int(now &- last) / 1000
        last = now
        lag.record(loop: loop, microseconds: max(0, elapsed - Int(LoopLag.interval * 1e6)))
    }

    func free() {
        if let event { event_free(event) }
        event = nil
    }
}

private func onLagTick(_ fd: Int32, _ events: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    Unmanaged<LoopLagTimer>.fromOpaque(arg).takeUnretainedValue().tick()
}
