import CLibevent
import StubdHTTP
import StubdSystem

/// The `Date` header of one loop's replies, formatted once a second from the loop's cached clock.
///
/// Without it evhttp formats the date itself for every reply (`evutil_date_rfc1123`: `time`,
/// `gmtime_r` and a `snprintf`, about 3,400 instructions — 6 % of a stub request); nginx caches its
/// date the same way. A reply whose own headers name a `Date` keeps it (`PreparedReply.setsDate`).
struct DateHeader {
    private var second = Int.min
    private(set) var value = ContiguousArray<CChar>([0])

    /// The value for now, NUL-terminated, on the loop of `base`: libevent's time of this loop iteration, which is
    /// at most one iteration old.
    mutating func current(base: OpaquePointer) -> ContiguousArray<CChar> {
        var now = System.timeValue(seconds: 0)
        guard event_base_gettimeofday_cached(base, &now) == 0 else { return value }
        let seconds = System.wholeSeconds(of: now)
        if seconds != second {
            second = seconds
            value = ContiguousArray(Self.format(unixSeconds: seconds).utf8CString)
        }
        return value
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// RFC 9110's IMF-fixdate, as evhttp writes it: `Tue, 24 Nov 2026 15:19:25 GMT`.
    static func format(unixSeconds: Int) -> String {
        let time = CivilTime(unixSeconds: unixSeconds)
        let pad = CivilTime.padded
        return "\(weekdays[time.weekday]), \(pad(time.day, 2)) \(months[time.month - 1]) \(pad(time.year, 4)) "
            + "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)) GMT"
    }
}
