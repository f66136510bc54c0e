import Foundation
import Testing
import StubModel
import StubdTestTags

/// `CivilTime` against Foundation's Gregorian calendar in UTC, over dates that cross leap days,
/// century rules and 1970 in both directions.
@Suite(.tags(.inMemory)) struct CivilTimeTests {
    static let moments: [Int] = [
        0, -1, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 4_107_456_000 /* 2100-02-28 */, 4_107_542_400 /* 2100-03-01 */,
        1_795_534_765 /* 2026-11-24 */, -2_208_988_800 /* 1900-01-01 */, 253_402_300_799 /* 9999-12-31 23:59:59 */,
    ] + (0..<200).map { $0 * 7_919_993 - 600_000_000 }

    @Test(arguments: moments) func fieldsAreTheGregorianCalendarsInUTC(seconds: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let expected = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday],
                                               from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let time = CivilTime(unixSeconds: seconds)
        #expect(time.year == expected.year)
        #expect(time.month == expected.month)
        #expect(time.day == expected.day)
        #expect(time.hour == expected.hour)
        #expect(time.minute == expected.minute)
        #expect(time.second == expected.second)
        #expect(time.weekday + 1 == expected.weekday, "Foundation numbers Sunday 1")
    }

    @Test func paddingKeepsLongerNumbersWhole() {
        #expect(CivilTime.padded(7, 2) == "07")
        #expect(CivilTime.padded(2026, 4) == "2026")
        #expect(CivilTime.padded(12345, 4) == "12345")
        #expect(CivilTime.padded(5, 3) == "005")
    }
}
