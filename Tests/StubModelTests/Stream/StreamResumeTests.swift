import Testing
import StubModel
import StubdTestTags

/// A reconnecting EventSource goes on after the last event it read, whichever way it sends the
/// id, and a fault it already met is not met again.
@Suite(.tags(.inMemory)) struct StreamResumeTests {
    static let stream = StubStream(events: (1...4).map { StreamEvent(data: .text("event \($0)"), id: String($0)) },
                                   fault: StreamFault(.reset, after: 2))

    @Test func theIdComesFromTheHeaderElseTheQuery() {
        #expect(StubStream.lastEventID(headers: [NameValue("last-event-id", "2")], rawQuery: "lastEventId=3") == "2")
        #expect(StubStream.lastEventID(headers: [], rawQuery: "a=1&lastEventId=m%20sg") == "m sg")
        #expect(StubStream.lastEventID(headers: [NameValue("Last-Event-ID", "")], rawQuery: nil) == nil)
        #expect(StubStream.lastEventID(headers: [], rawQuery: "lastEventId=") == nil)
        #expect(StubStream.lastEventID(headers: [], rawQuery: "other=lastEventId") == nil)
    }

    @Test func theStreamGoesOnAfterTheIdAndLeavesAFaultItPassed() throws {
        let (rest, skipped) = try #require(Self.stream.resumed(after: "2"))
        #expect(skipped == 2 && rest.events.map(\.id) == ["3", "4"] && rest.fault == nil)
        // A fault further on keeps its place among the remaining events.
        var later = Self.stream
        later.fault = StreamFault(.close, after: 3)
        let (resumed, _) = try #require(later.resumed(after: "1"))
        #expect(resumed.events.map(\.id) == ["2", "3", "4"] && resumed.fault == StreamFault(.close, after: 2))
        // After the last event: nothing left to send.
        #expect(try #require(Self.stream.resumed(after: "4")).stream.events.isEmpty)
    }

    @Test func anUnknownIdOrAnotherFormatStartsOver() {
        #expect(Self.stream.resumed(after: "9") == nil)
        var lines = Self.stream
        lines.format = .ndjson
        #expect(lines.resumed(after: "2") == nil)
    }
}
