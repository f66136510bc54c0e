/// A moment in UTC as calendar fields, computed from seconds since 1970 without a formatter or
/// the C library: the journal's timestamps and the engine's `Date` header are made on serving
/// paths, where a `DateFormatter` (or `gmtime` outside `StubdSystem`) costs too much.
public struct CivilTime: Sendable, Equatable {
    /// The year, e.g. 2026.
    public let year: Int
    /// 1 (January) to 12.
    public let month: Int
    /// 1 to 31.
    public let day: Int
    /// 0 to 23.
    public let hour: Int
    /// 0 to 59.
    public let minute: Int
    /// 0 to 59 (no leap seconds: Unix time has none).
    public let second: Int
    /// 0 (Sunday) to 6 (Saturday).
    public let weekday: Int

    /// The UTC calendar fields of `unixSeconds` (negative ones are before 1970).
    @inlinable @inline(__always) public init(unixSeconds: Int) {
        var days = unixSeconds / 86_400
        var secondOfDay = unixSeconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        // 1970-01-01 was a Thursday (4).
        let weekdayOfDays = (days + 4) % 7
        weekday = weekdayOfDays < 0 ? weekdayOfDays + 7 : weekdayOfDays
    }

    /// `value` in decimal with leading zeros to `width` digits.
    public static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
