import Testing
@testable import StubdEngine
import StubdTestTags
import Foundation

/// A connection's first bytes, without sockets (issue 33): the HTTP/2 preface and an over-limit
/// `Expect: 100-continue` head are answered before evhttp reads them; anything else is left alone.
@Suite(.tags(.inMemory)) struct FirstBytesTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func theHTTP2PrefaceGetsSettingsThenGoaway() {
        let kind = FirstBytes.classify(Self.bytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), bodyLimit: 100)
        #expect(kind == .http2Preface)
        let answer = kind.answer(bodyLimit: 100)
        #expect(Array(answer.prefix(9)) == [0, 0, 0, 4, 0, 0, 0, 0, 0], "an empty SETTINGS frame first")
        #expect(answer[12] == 7 && Array(answer[22..<26]) == [0, 0, 0, 0x0D], "then GOAWAY with HTTP_1_1_REQUIRED")
        #expect(String(decoding: answer[26...], as: UTF8.self).contains("stubd speaks HTTP/1.1"))
    }

    /// Issue 58: a length no number can hold is answered 400 at once without `Expect` (evhttp
    /// would wait for its body until the head timeout; with `Expect` it is the 413 below); a long
    /// but readable one is not.
    @Test func aContentLengthOfTwoToTheSixtyThreeIsAnswered400AtOnce() {
        for value in ["9223372036854775807", "9223372036854775808", " 000099999999999999999999"] {
            let head = "POST /up HTTP/1.1\r\nHost: x\r\ncontent-LENGTH:\(value)\r\n\r\n"
            #expect(FirstBytes.classify(Self.bytes(head), bodyLimit: 1000) == .unreadableLength, "\(value)")
        }
        #expect(FirstBytes.classify(Self.bytes("POST /up HTTP/1.1\r\nContent-Length: 922337203685477580\r\n\r\n"), bodyLimit: 1) == .ordinary)
        #expect(FirstBytes.classify(Self.bytes("POST /up HTTP/1.1\r\nX-Length: 1\r\nContent-Length: 00000000000000000000012\r\n\r\n"), bodyLimit: 1) == .ordinary)
        let answer = String(decoding: FirstBytes.unreadableLength.answer(bodyLimit: 1000), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && answer.contains("Connection: close\r\n") && answer.contains("2^63"))
    }

    @Test func onlyAnOverLimitExpectIsAnsweredEarly() {
        let head = "POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-Continue\r\n\r\n"
        #expect(FirstBytes.classify(Self.bytes(head), bodyLimit: 1000) == .expectTooLarge(length: 5000))
        #expect(FirstBytes.classify(Self.bytes(head), bodyLimit: 5000) == .ordinary, "at the limit")
        #expect(FirstBytes.classify(Self.bytes(head.replacingOccurrences(of: "Expect: 100-Continue\r\n", with: "")), bodyLimit: 1000) == .ordinary,
                "without Expect evhttp's lingering 413 stays")
        #expect(FirstBytes.classify(Self.bytes(String(head.dropLast(4))), bodyLimit: 1000) == .ordinary, "a head not yet whole")
        #expect(FirstBytes.classify(Self.bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), bodyLimit: 1) == .ordinary)
        let answer = String(decoding: FirstBytes.expectTooLarge(length: 5000).answer(bodyLimit: 1000), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n") && answer.contains("Connection: close\r\n") && answer.hasSuffix(#""limit":1000}"#))
    }

    /// An impossible length with `Expect` is answered at once, never with `100 Continue` (2^63 and
    /// more waited for the head timeout; `+5` got `100 Continue`).
    @Test func anImpossibleLengthWithExpectIsAnsweredAtOnce() {
        func head(_ length: String) -> [UInt8] { Self.bytes("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\nExpect: 100-continue\r\n\r\n") }
        #expect(FirstBytes.classify(head("9223372036854775808"), bodyLimit: 1000) == .expectTooLarge(length: Int.max))
        #expect(FirstBytes.classify(head(String(repeating: "9", count: 300)), bodyLimit: 1000) == .expectTooLarge(length: Int.max))
        #expect(FirstBytes.classify(head("9223372036854775807"), bodyLimit: 1000) == .expectTooLarge(length: Int.max))
        for bad in ["+5", "-1", "0x10", "1 2", "5,5", ""] {
            #expect(FirstBytes.classify(head(bad), bodyLimit: 1000) == .expectBadLength, "\(bad)")
        }
        #expect(FirstBytes.classify(head("5"), bodyLimit: 1000) == .ordinary)
        let answer = String(decoding: FirstBytes.expectBadLength.answer(bodyLimit: 1000), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && answer.contains("Connection: close\r\n"))
    }
}
