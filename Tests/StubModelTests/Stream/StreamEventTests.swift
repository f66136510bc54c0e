import Testing
import StubModel
import StubdTestTags

/// SSE, NDJSON and chunked framing, byte for byte; what one request of a stream receives —
/// pauses, jitter, splits and faults — without sockets.
@Suite(.tags(.inMemory)) struct StreamEventTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func sseFramingIsExact() {
        let event = StreamEvent(data: .text("one\ntwo\r\nthree\rfour"), event: "tick", id: "7", retry: 3000, comment: "hi")
        #expect(text(event.encoded(as: .sse)) == ": hi\nid: 7\nevent: tick\nretry: 3000\ndata: one\ndata: two\ndata: three\ndata: four\n\n")
        #expect(text(StreamEvent.json(.object([("n", .number(1))])).encoded(as: .sse)) == "data: {\"n\":1}\n\n")
        #expect(text(StreamEvent(comment: "").encoded(as: .sse)) == ":\n\n")
        // A field value cannot start a line of its own.
        #expect(text(StreamEvent(data: .text("x"), event: "a\nb").encoded(as: .sse)) == "event: ab\ndata: x\n\n")
        #expect(text(StreamEvent(data: .text("")).encoded(as: .sse)) == "data: \n\n")
    }

    @Test func ndjsonAndChunkedFraming() {
        let json = StreamEvent.json(.object([("a", .array([.number(1), .bool(true)]))]))
        #expect(text(json.encoded(as: .ndjson)) == "{\"a\":[1,true]}\n")
        #expect(text(json.encoded(as: .chunked)) == "{\"a\":[1,true]}")
        #expect(text(StreamEvent(data: .text("plain")).encoded(as: .chunked)) == "plain")
        // A rendered payload replaces the event's own data.
        #expect(text(json.encoded(as: .sse, data: "rendered")) == "data: rendered\n\n")
    }

    @Test func pausesFollowThePacingAndAnEventsOwnDelay() {
        let stream = StubStream(events: [StreamEvent(data: .text("a")), StreamEvent(data: .text("b")), StreamEvent(data: .text("c"), delay: 2)],
                                pacing: StreamPacing(first: 0.5, between: 0.1))
        let writes = stream.writes()
        #expect(writes.writes.map(\.after) == [0.5, 0.1, 2])
        #expect(writes.ending == .finish && writes.events == 3)
        #expect(text(writes.writes.flatMap(\.bytes)) == "data: a\n\ndata: b\n\ndata: c\n\n")
    }

    @Test func jitterStaysWithinItsBoundAndFollowsTheRandomValues() {
        let stream = StubStream(events: (0..<50).map { StreamEvent(data: .text("\($0)")) }, pacing: StreamPacing(first: 0.2, between: 0.1, jitter: 0.05))
        var values: [Double] = (0..<50).map { Double($0) / 50 }
        let writes = stream.writes { values.removeFirst() }
        for (index, write) in writes.writes.enumerated() {
            let base = index == 0 ? 0.2 : 0.1
            #expect(abs(write.after - base) <= 0.05 + 1e-9, "pause \(index): \(write.after)")
        }
        // The lowest random value moves the first pause down by the whole jitter.
        #expect(abs(writes.writes[0].after - 0.15) < 1e-9)
        // Jitter never makes a pause negative.
        let tight = StubStream(events: [StreamEvent(data: .text("x"))], pacing: StreamPacing(first: 0.01, jitter: 1))
        #expect(tight.writes { 0 }.writes[0].after == 0)
    }

    @Test func aUTF8SplitCutsInsideTheFirstMultiByteCharacter() throws {
        let stream = StubStream(events: [StreamEvent(data: .text("héllo"))], split: .utf8)
        let writes = stream.writes().writes
        try #require(writes.count == 2)
        #expect(writes[1].after == StreamSplit.gap)
        // "data: h" then the lead byte of é: the first piece is not valid UTF-8 on its own.
        #expect(writes[0].bytes == Array("data: h".utf8) + [0xC3])
        #expect(String(validating: writes[0].bytes, as: UTF8.self) == nil)
        #expect(text(writes[0].bytes + writes[1].bytes) == "data: héllo\n\n")
    }

    @Test func aLineSplitCutsInsideTheFirstLine() throws {
        let bytes = StreamEvent(data: .text("abcdefgh")).encoded(as: .sse)
        let cut = try #require(StreamSplit.line.cut(bytes))
        let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        #expect(cut > 0 && cut < newline)
        #expect(StreamSplit.utf8.cut(Array("ab".utf8)) == 1 && StreamSplit.line.cut([1]) == nil)
    }

    @Test func faultsEndTheStreamAfterTheirEvents() {
        let events = (1...4).map { StreamEvent(data: .text("e\($0)")) }
        func run(_ fault: StreamFault) -> StreamWrites {
            StubStream(events: events, pacing: StreamPacing(between: 0.3), fault: fault).writes()
        }
        let reset = run(StreamFault(.reset, after: 2))
        #expect(reset.writes.count == 2 && reset.ending == .reset && reset.endingAfter == 0.3 && reset.events == 2)
        #expect(run(StreamFault(.close, after: 0)).writes.isEmpty && run(StreamFault(.close, after: 0)).ending == .close)
        #expect(run(StreamFault(.stall, after: 1, seconds: 4)).ending == .stall(seconds: 4))
        let end = run(StreamFault(.end, after: 3))
        #expect(end.ending == .finish && end.events == 3 && !text(end.writes.flatMap(\.bytes)).contains("e4"))
        let malformed = run(StreamFault(.malformed, after: 1))
        #expect(malformed.ending == .finish && malformed.events == 4)
        #expect(text(malformed.writes[1].bytes) == "data: e\n\n" && text(malformed.writes[3].bytes) == "data: e4\n\n")
        // The event keeps its type; JSON data is cut in the middle.
        let typed = StreamEvent(data: .json(.object([("type", .string("delta"))])), event: "delta")
        #expect(text(StreamFault.malformed(typed, payload: nil, format: .sse)) == "event: delta\ndata: {\"type\":\n\n")
        #expect(text(StreamFault.malformed(StreamEvent(data: .text("")), payload: nil, format: .ndjson)).hasPrefix("{\"stubd\""))
        // A fault after the last event comes one pause after it.
        let late = run(StreamFault(.reset, after: 9))
        #expect(late.writes.count == 4 && late.ending == .reset && late.endingAfter == 0.3)
    }

    @Test func defaultHeadersAreAddedOnlyWhenMissing() {
        let headers = StubStream.headersWithDefaults([NameValue("content-type", "text/event-stream")], format: .sse)
        #expect(headers.map(\.name) == ["content-type", "Cache-Control", "X-Content-Type-Options"])
        #expect(StubStream.headersWithDefaults([], format: .ndjson).first == NameValue("Content-Type", "application/x-ndjson"))
    }
}
