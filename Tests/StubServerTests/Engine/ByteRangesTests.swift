import Testing
import StubModel
import StubdEngine
import StubdTestTags

/// `Range` on a route's answer, without sockets: which bytes, when 416, when the whole body.
@Suite(.tags(.inMemory)) struct ByteRangesTests {
    @Test func singleRangesAreReadAsRFC9110Says() {
        #expect(ByteRanges.parse("bytes=0-99", length: 1000) == .range(0..<100))
        #expect(ByteRanges.parse("bytes=500-", length: 1000) == .range(500..<1000))
        #expect(ByteRanges.parse("bytes=-200", length: 1000) == .range(800..<1000))
        #expect(ByteRanges.parse("bytes=-2000", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=990-2000", length: 1000) == .range(990..<1000))
        #expect(ByteRanges.parse("bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRanges.parse("bytes=-0", length: 1000) == .unsatisfiable)
        for whole in ["items=0-1", "bytes=5-2", "bytes=a-b", "bytes=0-1,4-5", "bytes="] {
            #expect(ByteRanges.parse(whole, length: 1000) == .none, "\(whole)")
        }
    }

    /// Positions from the wire at every numeric edge: none traps (2^63−1 + 1 killed the process),
    /// a position past Int.max means "more than there is", a sign or a space inside is not a range.
    @Test func positionsAtNumericEdgesAreReadWithoutATrap() {
        let huge = "9223372036854775807", past = "9223372036854775808", pastMore = String(repeating: "9", count: 400)
        #expect(ByteRanges.parse("bytes=0-\(huge)", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=0-\(past)", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=0-\(pastMore)", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=\(huge)-\(huge)", length: 1000) == .unsatisfiable)
        #expect(ByteRanges.parse("bytes=\(huge)-", length: 1000) == .unsatisfiable)
        #expect(ByteRanges.parse("bytes=-\(huge)", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=-\(pastMore)", length: 1000) == .range(0..<1000))
        #expect(ByteRanges.parse("bytes=999-\(huge)", length: 1000) == .range(999..<1000))
        for empty in ["bytes=-5", "bytes=-\(huge)", "bytes=0-", "bytes=0-0"] {
            #expect(ByteRanges.parse(empty, length: 0) == .unsatisfiable, "\(empty) of an empty body")
        }
        for malformed in ["bytes=+5-9", "bytes=0-+9", "bytes=-+5", "bytes=0x1-2", "bytes=1 2-3", "bytes=-", "bytes=--1"] {
            #expect(ByteRanges.parse(malformed, length: 1000) == .none, "\(malformed)")
        }
    }

    @Test func aRangeBecomesA206AndOnlyFor200AnswersWithABody() throws {
        let reply = PreparedReply(status: 200, headers: [NameValue("ETag", "\"v1\"")], body: Array("0123456789".utf8))
        let plan = ReplyPlan(content: .response(reply), delay: 0.5, dribble: Dribble(chunks: 2, seconds: 1))
        let ranged = try #require(ByteRanges.apply(to: plan, request: IncomingRequest(method: "GET", target: "/x", headers: [NameValue("Range", "bytes=2-4")])))
        guard case .response(let partial) = ranged.content else { Issue.record("not a response"); return }
        #expect(partial.status == 206 && partial.body == Array("234".utf8))
        #expect(partial.headers.contains(NameValue("Content-Range", "bytes 2-4/10")) && partial.headers.contains(NameValue("Accept-Ranges", "bytes")))
        #expect(ranged.delay == 0.5 && ranged.dribble == Dribble(chunks: 2, seconds: 1), "delay and dribble apply to the range")
        let stale = IncomingRequest(method: "GET", target: "/x", headers: [NameValue("Range", "bytes=2-4"), NameValue("If-Range", "\"v0\"")])
        #expect(ByteRanges.apply(to: plan, request: stale) == nil)
        let fresh = IncomingRequest(method: "GET", target: "/x", headers: [NameValue("Range", "bytes=2-4"), NameValue("If-Range", "\"v1\"")])
        #expect(ByteRanges.apply(to: plan, request: fresh) != nil)
        let post = IncomingRequest(method: "POST", target: "/x", headers: [NameValue("Range", "bytes=2-4")])
        #expect(ByteRanges.apply(to: plan, request: post) == nil)
        let notFound = ReplyPlan(content: .response(PreparedReply(status: 404, headers: [], body: Array("no".utf8))))
        #expect(ByteRanges.apply(to: notFound, request: IncomingRequest(method: "GET", target: "/x", headers: [NameValue("Range", "bytes=0-0")])) == nil)
    }
}
