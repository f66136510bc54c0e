import Foundation
import Testing
import StubdTestSupport
import StubModel
import StubServer
import FixtureFiles
import StubdTestTags
import StubdRuntime

/// A client's silent re-send of a request that got a no-byte fault from a plain fault route is
/// journaled marked, so counts can leave it out — told by what arrives (the same bytes within a
/// second), never by the User-Agent: every re-send of the chain is marked, whoever sends it; other
/// bytes are not. (A fault step is never re-sent: it goes as a response.)
@Suite(.tags(.process)) struct ResendJournalTests {
    static let fixtures = #"""
    {"routes": [
      {"name": "orders-down", "request": {"method": "POST", "path": "/orders"}, "fault": "reset"},
      {"name": "down", "request": {"method": "GET", "path": "/down"}, "networkError": {"code": -1005}}
    ]}
    """#

    @Test func theSameRequestRightAfterANoByteFaultIsMarkedAResend() throws {
        let stubd = try InMemoryStubd(Self.fixtures)
        defer { stubd.stop() }
        let session = [("X-Stubd-Session", "s1")], order = #"{"item":1}"#
        // Three sends of the same bytes: the second and third are re-sends (of the one before,
        // which met the fault again), on any connection.
        for connectionRequest in [2, 1, 1] {
            #expect(stubd.send("POST", "/orders", headers: session, body: order, connectionRequest: connectionRequest)?.fault == .reset)
        }
        // Another body: not a re-send.
        _ = stubd.send("POST", "/orders", headers: session, body: #"{"item":2}"#)
        // The User-Agent changes nothing: Java's and Python requests' second identical GET alike.
        for agent in ["Java-http-client/17.0.9", "python-requests/2.28.1"] {
            let headers = [("X-Stubd-Session", "s-" + agent), ("User-Agent", agent)]
            _ = stubd.send("GET", "/down", headers: headers, connectionRequest: 2)
            _ = stubd.send("GET", "/down", headers: headers, connectionRequest: 1)
        }
        let entries = stubd.server.requests()
        #expect(entries.map(\.isResend) == [false, true, true, false, false, true, false, true], "\(entries.map(\.isResend))")
        let listed = try #require(stubd.get("/__stubd/requests", headers: session))
        #expect(listed.text.contains(#""resend": true"#) || listed.text.contains(#""resend":true"#), "\(listed.text)")
    }

    /// curl over a real socket: a fault on a reused connection makes it re-send on a fresh one
    /// ("Connection died, retrying a fresh connect"); the journal holds both, the second marked.
    @Test func curlsRetryOnAFreshConnectionIsMarked() throws {
        let fixtures = try FixtureReader(file: "r.json") { _ throws(FixtureReader.FixtureProblem) in [] }.read(Array(#"""
            {"routes": [{"request": {"method": "GET", "path": "/warm"}, "response": {"text": "w"}},
                        {"request": {"method": "GET", "path": "/down"}, "fault": "reset"}]}
            """#.utf8))
        let probe = ArrivalProbe()
        let server = try TestServer(fixtures: fixtures, observers: [probe])
        defer { server.stop() }
        let result = try Curl.run(["-v", server.url("/warm"), server.url("/down")])
        #expect(result.stderr.contains("retrying a fresh connect"), "curl did not re-send: \(result.stderr)")
        // curl may exit (on the re-send's reset) before the loop has ended that exchange: wait
        // for both ends (the journal observes before the probe, which is added last).
        #expect(probe.waitForEnd(of: "/down", count: 2, timeout: 10))
        let entries = server.server.requests()
        #expect(entries.map(\.path) == ["/warm", "/down", "/down"] && entries.map(\.isResend) == [false, false, true], "\(entries.map { ($0.path, $0.isResend) })")
    }
}
