/// Numbers that come from outside — a header, a template value, a request body, a fixture — turned
/// into Swift integers without a trap. Swift's `Int(_: Double)` traps on NaN, infinities and values
/// past `Int.max`, and `+ 1` on `Int.max` traps: a request that reaches either kills the process
/// (a `Range` end of 2^63−1, `{{substring s 0 1e30}}`). Every integer read from remote input goes
/// through one of these (docs/ARCHITECTURE.md, "Numbers from outside").
public enum CheckedNumber {
    /// RFC 9110's `1*DIGIT` (no sign, no space, no other digits): nil for anything else; a value
    /// past `Int.max` is `Int.max` (for a length or a position, "more than there is").
    public static func decimalDigits<S: StringProtocol>(_ text: S) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflowTimes || overflowSum { value = Int.max } else { value = sum }
        }
        return value
    }

    /// A whole number within ±2^53 (where a Double still counts every integer), else nil.
    public static func exactInt(_ value: Double) -> Int? {
        guard value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }

    /// `value` rounded towards zero and held within `range`; NaN is the range's lower bound.
    public static func clamped(_ value: Double, to range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        if value <= Double(range.lowerBound) { return range.lowerBound }
        if value >= Double(range.upperBound) { return range.upperBound }
        return Int(value)
    }
}
