import Foundation
import Testing
@testable import StubdEngine
import StubdTestTags

/// The engine's precomputed `Date` value, without a socket.
@Suite(.tags(.inMemory)) struct EngineTextTests {
    @Test(arguments: [0, 784_111_777, 951_782_400, 1_795_534_765, 4_107_542_400] + (0..<50).map { $0 * 38_123_457 })
    func theDateIsTheIMFFixdateFoundationWrites(seconds: Int) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(DateHeader.format(unixSeconds: seconds) == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }

    @Test func rfc9110sExampleDate() {
        #expect(DateHeader.format(unixSeconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
