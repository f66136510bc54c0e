import Testing
import StubdTestSupport
import StubModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
@testable import StubdEngine
import StubdTestTags

/// The journal as an exchange observer, without a socket: bounded, filtered, per session.
@Suite(.tags(.inMemory))
struct RequestJournalTests {
    static func exchange(_ path: String, method: String = "GET", session: SessionID? = nil, hit: Bool = true,
                         headers: [NameValue] = [], body: String = "") -> Exchange {
        Exchange(request: IncomingRequest(method: method, target: path, headers: headers + (session.map { [NameValue(SessionID.header, $0.rawValue)] } ?? []),
                                          body: Array(body.utf8)),
                 resolution: hit ? .route(compiledRoute("r", id: RouteID(.fixture, 0))) : .miss(closest: "closest: r (path)"),
                 outcome: .status(hit ? 200 : 404), latencySeconds: 0.001)
    }

    @Test func keepsTheLastEntriesOfARingAndCountsByFilter() {
        let journal = RequestJournal(capacity: 3, bodyLimit: 4)
        for index in 0..<5 { journal.exchangeEnded(Self.exchange("/n/\(index)", body: "123456")) }
        let entries = journal.entries()
        #expect(entries.map(\.path) == ["/n/2", "/n/3", "/n/4"])
        #expect(entries.map(\.sequence) == [3, 4, 5])
        #expect(entries[0].body == Array("1234".utf8))
        #expect(entries[0].bodySize == 6)
        #expect(journal.count(matching: JournalQuery(path: "/n/*")) == 3)
        #expect(journal.count(matching: JournalQuery(path: "/n/4")) == 1)
    }

    @Test func adminCallsAndPreflightsAreNotKept() {
        let journal = RequestJournal()
        let request = IncomingRequest(method: "GET", target: "/__stubd/health")
        journal.exchangeEnded(Exchange(request: request, resolution: .admin, outcome: .status(200), latencySeconds: 0))
        journal.exchangeEnded(Exchange(request: request, resolution: .preflight, outcome: .status(204), latencySeconds: 0))
        #expect(journal.size == 0)
    }

    @Test func missesKeepTheirNearMissAndSessionsClearOnlyTheirOwn() {
        let journal = RequestJournal()
        journal.exchangeEnded(Self.exchange("/a", session: "t1", hit: false))
        journal.exchangeEnded(Self.exchange("/b", session: "t2"))
        #expect(journal.entries(matching: JournalQuery(matched: false)).first?.nearMiss == "closest: r (path)")
        #expect(journal.count(matching: JournalQuery(session: "t1")) == 1)
        journal.clear(session: "t1")
        #expect(journal.entries().map(\.path) == ["/b"])
        journal.clear()
        #expect(journal.size == 0)
    }

    @Test func aZeroCapacityJournalKeepsNothing() {
        let journal = RequestJournal(capacity: 0)
        journal.exchangeEnded(Self.exchange("/a"))
        #expect(journal.entries().isEmpty)
    }
}
