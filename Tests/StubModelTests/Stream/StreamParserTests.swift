import Testing
import StubModel
import StubdTestTags

/// A recorded stream read back into events: SSE as a browser's EventSource parses it, NDJSON by
/// line, each event with the pause before it taken from when its last byte arrived.
@Suite(.tags(.inMemory)) struct StreamParserTests {
    @Test func sseIsParsedAsEventSourceParsesIt() {
        let body = Array(": hi\r\nid: 7\r\nevent: tick\r\nretry: 300\r\ndata: one\r\ndata:two\r\n\r\ndata: {\"n\":1}\n\ndata: {\"n\": 2}\rdata: x\r\rdata: cut".utf8)
        let events = StreamParser.events(body, format: .sse, arrivals: [])
        #expect(events.count == 3)
        #expect(events[0] == StreamEvent(data: .text("one\ntwo"), event: "tick", id: "7", retry: 300, comment: "hi", delay: 0))
        // Compact JSON stays JSON (replayed byte for byte); laid-out JSON stays text.
        #expect(events[1].data == .json(.object([("n", .number(1))])))
        #expect(events[2].data == .text("{\"n\": 2}\nx"))
        // Written back, the SSE parts read the same.
        let again = StreamParser.events(events.flatMap { $0.encoded(as: .sse) }, format: .sse, arrivals: [])
        #expect(again.map(\.data) == events.map(\.data) && again.map(\.event) == events.map(\.event))
    }

    @Test func eachEventsPauseComesFromWhenItsLastByteArrived() {
        let first = Array("data: a\n\n".utf8), second = Array("data: b\n".utf8), rest = Array("\ndata: c\n\n".utf8)
        let body = first + second + rest
        let arrivals = [StreamArrival(seconds: 0.25, end: first.count), StreamArrival(seconds: 0.5, end: first.count + second.count),
                        StreamArrival(seconds: 1.2504, end: body.count)]
        let events = StreamParser.events(body, format: .sse, arrivals: arrivals)
        // "b" ends in the third piece (its blank line came with "c").
        #expect(events.map(\.delay) == [0.25, 1.0, 0])
    }

    @Test func ndjsonIsReadByLine() {
        let body = Array("{\"a\":1}\r\n\n{\"b\":2}\nplain".utf8)
        let events = StreamParser.events(body, format: .ndjson, arrivals: [StreamArrival(seconds: 0.1, end: 9), StreamArrival(seconds: 0.3, end: body.count)])
        #expect(events.map(\.data) == [.json(.object([("a", .number(1))])), .json(.object([("b", .number(2))])), .text("plain")])
        #expect(events.map(\.delay) == [0.1, 0.2, 0])
    }

    @Test func streamContentTypesAreKnown() {
        #expect(StreamParser.format(contentType: "text/event-stream; charset=utf-8") == .sse)
        #expect(StreamParser.format(contentType: "Application/X-NDJSON") == .ndjson)
        #expect(StreamParser.format(contentType: "application/json") == nil)
    }
}
