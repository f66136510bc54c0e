import Foundation
import Testing
import StubdTestSupport
import StubdEngine
import StubdTestTags
import StubdRuntime

/// The dashboard's event stream on a stubd served in memory: a reconnect with `Last-Event-ID`
/// (or `?lastEventId=`) gets everything after it that the journal still holds, then the live
/// events, none twice.
@Suite(.tags(.inMemory)) struct EventStreamServingTests {
    static let fixtures = #"{"routes": [{"request": {"method": "GET", "path": "/item", "anyOtherQuery": true}, "response": {"text": "item"}}]}"#

    /// The `id:` lines received so far.
    static func ids(_ text: String) -> [Int] {
        text.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil }
    }

    @Test func aReconnectWithLastEventIDGetsEverythingAfterItThatTheJournalHolds() throws {
        let stubd = try InMemoryStubd(Self.fixtures, settings: { $0.journalCapacity = 5 })
        defer { stubd.stop() }
        for n in 1...10 { _ = stubd.get("/item?n=\(n)") }
        // Resuming after 4: 5 has left the 5-entry journal; 6–10 are sent, then the live ones.
        let resumedReply = try #require(stubd.get("/__stubd/events", headers: [("Last-Event-ID", "4")]))
        let resumed = try #require(resumedReply.stream)
        defer { resumed.close() }
        #expect(resumed.wait { Self.ids($0).count == 5 }, "\(Self.ids(String(decoding: resumed.body, as: UTF8.self)))")
        #expect(Self.ids(String(decoding: resumed.body, as: UTF8.self)) == [6, 7, 8, 9, 10])
        for n in 11...12 { _ = stubd.get("/item?n=\(n)") }
        #expect(resumed.wait { Self.ids($0).count == 7 })
        #expect(Self.ids(String(decoding: resumed.body, as: UTF8.self)) == [6, 7, 8, 9, 10, 11, 12])
        // Resuming from the newest: only live events, none twice.
        let caughtUpReply = try #require(stubd.get("/__stubd/events?lastEventId=12"))
        let caughtUp = try #require(caughtUpReply.stream)
        defer { caughtUp.close() }
        #expect(caughtUp.wait { $0.contains("retry:") })
        _ = stubd.get("/item?n=13")
        #expect(caughtUp.wait { Self.ids($0) == [13] }, "\(Self.ids(String(decoding: caughtUp.body, as: UTF8.self)))")
    }
}
