#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#endif

extension System {
    /// A `timeval` of `seconds`, for libevent's timers and timeouts. `.init` takes each field's
    /// own type — `tv_usec` is `Int32` (`__darwin_suseconds_t`) on Darwin and `Int` on Glibc —
    /// so one spelling builds on both.
    @inlinable @inline(__always) public static func timeValue(seconds: Double) -> timeval {
        let whole = seconds.rounded(.down)
        return timeval(tv_sec: .init(whole), tv_usec: .init((seconds - whole) * 1_000_000))
    }

    /// The whole seconds of `value` (a wall-clock time from libevent's cached clock). `tv_sec` is
    /// `time_t` on both systems (`__darwin_time_t` on Darwin, `__time_t` on Glibc), an `Int` on
    /// every 64-bit platform, so `Int(…)` converts either without a branch.
    public static func wholeSeconds(of value: timeval) -> Int {
        Int(value.tv_sec)
    }
}
