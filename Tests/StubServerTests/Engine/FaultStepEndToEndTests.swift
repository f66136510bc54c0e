import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// A sequence step that fails without a response byte reaches clients that silently re-send
/// requests (curl and URLSession on a reused connection, Java's HttpClient always), and the
/// journal shows every attempt with its connection.
@Suite(.serialized, .tags(.process)) struct FaultStepEndToEndTests {
    static func fixtures() -> [Fixture] {
        [
            route("/warm", outcome: ok("warm")),
            Fixture(name: "flaky", source: "test", request: RequestPattern(method: "GET", path: "/flaky"),
                    outcomes: [ok("first", status: 500), .fault(.reset), ok("ok")]),
            Fixture(name: "flaky-empty", source: "test", request: RequestPattern(method: "GET", path: "/flaky-empty"),
                    outcomes: [ok("first", status: 500), .fault(.empty), ok("ok")]),
            Fixture(name: "reset-first", source: "test", request: RequestPattern(method: "GET", path: "/reset-first"),
                    outcomes: [.fault(.reset), ok("ok")]),
            route("/always-reset", outcome: .fault(.reset)),
        ]
    }

    /// curl re-sends a request whose reused connection dies before a byte ("Connection died,
    /// retrying a fresh connect"); one invocation with three URLs must still see the reset.
    @Test(arguments: ["/flaky", "/flaky-empty"])
    func curlSeesTheFaultStepInOneInvocation(path: String) throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let url = server.url(path)
        let result = try Curl.run(["-w", " %{http_code}\n", server.url("/warm"), url, url, url])
        #expect(result.stdout.split(separator: "\n") == ["warm 200", "first 500", " 000", "ok 200"], "\(result.stderr)")
    }

    @Test func curlSeesAFirstStepResetAfterAnotherRouteOnTheSameConnection() throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let url = server.url("/reset-first")
        let result = try Curl.run(["-w", " %{http_code}\n", server.url("/warm"), url, url])
        #expect(result.stdout.split(separator: "\n") == ["warm 200", " 000", "ok 200"], "\(result.stderr)")
    }

    /// One URLSession (connections reused, as in an app): 500, then the fault, then ok.
    @Test(arguments: [("/flaky", NSURLErrorNetworkConnectionLost), ("/flaky-empty", NSURLErrorBadServerResponse)])
    func urlSessionSeesTheFaultStep(path: String, code: Int) async throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let session = HTTPFetch.session(timeout: 5)
        defer { session.finishTasksAndInvalidate() }
        var seen: [String] = []
        for target in ["/warm", path, path, path] {
            do {
                let (_, response) = try await session.data(from: URL(string: server.url(target))!)
                seen.append(String((response as? HTTPURLResponse)?.statusCode ?? 0))
            } catch {
                seen.append("error \((error as NSError).code)")
            }
        }
        #expect(seen == ["200", "500", "error \(code)", "200"])
    }

    /// Java's HttpClient re-sends a GET that got no byte even on a fresh connection, so the step
    /// is held for the re-send: two Java attempts meet the reset, the next request gets ok.
    @Test func aJavaResendMeetsTheSameFault() throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let java = "GET /reset-first HTTP/1.1\r\nHost: x\r\nUser-Agent: Java-http-client/17.0.15\r\n\r\n"
        #expect(RawHTTP.exchange(port: server.port, bytes: Array(java.utf8)).isEmpty)
        #expect(RawHTTP.exchange(port: server.port, bytes: Array(java.utf8)).isEmpty)
        let reply = RawHTTP.exchange(port: server.port, bytes: Array("GET /reset-first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: reply, as: UTF8.self).hasSuffix("\r\n\r\nok"))
    }

    /// A step that meets a connection opened before it became next: a client that re-sends
    /// (curl's agent) gets the fault held for its re-send; one that reports the failure without
    /// re-sending (Python requests, Node fetch) consumes it at once, or its next request would
    /// fail too.
    @Test(arguments: [("curl/7.88.1", ["", "", "ok"]), ("python-requests/2.32.3", ["", "ok", "ok"])])
    func aStepOnAReusedConnectionIsHeldOnlyForClientsThatResend(agent: String, expected: [String]) throws {
        let server = try TestServer(fixtures: [route("/warm", outcome: ok("warm"))] + Self.fixtures().filter { $0.name == "flaky" })
        defer { server.stop() }
        let header = "Host: x\r\nUser-Agent: \(agent)\r\n"
        let kept = RawHTTP.connectLoopback(port: server.port)
        defer { close(kept) }
        #expect(RawHTTP.roundTrip(kept, "GET /warm HTTP/1.1\r\n\(header)\r\n").hasSuffix("warm"))
        let first = RawHTTP.exchange(port: server.port, bytes: Array("GET /flaky HTTP/1.1\r\n\(header)\r\n".utf8))
        #expect(String(decoding: first, as: UTF8.self).hasSuffix("first"))
        var seen = [RawHTTP.roundTrip(kept, "GET /flaky HTTP/1.1\r\n\(header)\r\n")]
        for _ in 0..<2 {
            let reply = RawHTTP.exchange(port: server.port, bytes: Array("GET /flaky HTTP/1.1\r\n\(header)Connection: close\r\n\r\n".utf8))
            seen.append(String(decoding: reply, as: UTF8.self))
        }
        #expect(seen.map { $0.hasSuffix("\r\n\r\nok") ? "ok" : $0 } == expected)
    }

    /// A browser re-sends after a reset on any socket it had idle — reused, or opened ahead of
    /// need, which no server can tell from one opened for the request — so its request gets the
    /// step as a head with two different lengths (an error it never re-sends), on a reused
    /// connection as on a first request, and the step is consumed: the next request reads ok.
    /// A route without steps keeps its authored reset (nothing can be skipped there).
    @Test(arguments: ["Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n", "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0\r\n"])
    func aBrowserGetsTheStepAsBrokenFramingAndItIsConsumed(browserHeader: String) throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let broken = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n"
        for path in ["/reset-first", "/flaky"] {
            let kept = RawHTTP.connectLoopback(port: server.port)
            defer { close(kept) }
            #expect(RawHTTP.roundTrip(kept, "GET /warm HTTP/1.1\r\nHost: x\r\n\(browserHeader)\r\n").hasSuffix("warm"))
            if path == "/flaky" {
                let first = RawHTTP.exchange(port: server.port, bytes: Array("GET /flaky HTTP/1.1\r\nHost: x\r\n\(browserHeader)\r\n".utf8))
                #expect(String(decoding: first, as: UTF8.self).hasSuffix("first"))
            }
            #expect(RawHTTP.roundTrip(kept, "GET \(path) HTTP/1.1\r\nHost: x\r\n\(browserHeader)\r\n") == broken, "\(path) on a reused connection")
            let next = RawHTTP.exchange(port: server.port, bytes: Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\(browserHeader)Connection: close\r\n\r\n".utf8))
            #expect(String(decoding: next, as: UTF8.self).hasSuffix("\r\n\r\nok"), "\(path): the step was consumed")
        }
        let plain = RawHTTP.exchange(port: server.port, bytes: Array("GET /always-reset HTTP/1.1\r\nHost: x\r\n\(browserHeader)\r\n".utf8))
        #expect(plain.isEmpty, "a route without steps resets: \(String(decoding: plain, as: UTF8.self))")
        // The journal says how each fault went.
        let journal = try Curl.run([server.url("/__stubd/requests")]).stdout
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.utf8)) as? [String: Any])["requests"] as? [[String: Any]] ?? []
        let faults = entries.compactMap { entry in (entry["fault"] as? String).map { "\(entry["path"] ?? "?") \($0) \(entry["faultSentAs"] ?? "as written")" } }
        #expect(faults == ["/reset-first reset brokenFraming", "/flaky reset brokenFraming", "/always-reset reset as written"])
    }

    /// A `hang` step still hangs for a browser; at the cap its connection ends with the
    /// broken-framing head (a bare close would be re-sent on an idle socket), and the step is used.
    @Test func aBrowsersHangStepEndsWithBrokenFramingAtTheCap() throws {
        let hang = Fixture(name: "hang-first", source: "test", request: RequestPattern(method: "GET", path: "/hang-first"),
                           outcomes: [.fault(.hang), ok("ok")])
        let server = try TestServer(fixtures: [hang]) { $0.hangCapSeconds = 0.3 }
        defer { server.stop() }
        let start = Date()
        let request = "GET /hang-first HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n\r\n"
        let reply = RawHTTP.exchange(port: server.port, bytes: Array(request.utf8))
        #expect(Date().timeIntervalSince(start) >= 0.3)
        #expect(String(decoding: reply, as: UTF8.self) == "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n")
        let next = RawHTTP.exchange(port: server.port, bytes: Array("GET /hang-first HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: next, as: UTF8.self).hasSuffix("\r\n\r\nok"))
    }

    /// Only the replies of the route whose next step sends no byte close their connection; an
    /// unrelated route keeps its connection alive however many fault steps are loaded; the
    /// journal lists each attempt with its connection number and place on it.
    @Test func repliesBeforeAFaultStepCloseTheConnectionAndTheJournalShowsConnections() throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let warm = try Curl.run(["-i", server.url("/warm")])
        #expect(!warm.stdout.lowercased().contains("connection: close"), "an unrelated route keeps keep-alive")
        // Five GETs of the unrelated route with `[reset, ok]` and `[500, reset, ok]` loaded: one connection.
        _ = try Curl.run((1...5).flatMap { _ in ["-o", "/dev/null", server.url("/warm")] })
        let warmJournal = try Curl.run([server.url("/__stubd/requests?path=/warm")]).stdout
        let warmEntries = try #require(try JSONSerialization.jsonObject(with: Data(warmJournal.utf8)) as? [String: Any])["requests"] as? [[String: Any]]
        let warmConnections = Set((warmEntries ?? []).dropFirst().compactMap { $0["connection"] as? Int })
        #expect(warmConnections.count == 1, "five GETs of /warm on \(warmConnections.count) connections")
        let before = try Curl.run(["-i", server.url("/flaky")])
        #expect(before.stdout.lowercased().contains("connection: close"), "the reply before the reset step closes")
        let url = server.url("/flaky")
        _ = try Curl.run([url, url])
        let journal = try Curl.run([server.url("/__stubd/requests?path=/flaky")]).stdout
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(journal.utf8)) as? [String: Any])["requests"] as? [[String: Any]]
        let attempts = (entries ?? []).map { "\($0["status"] ?? $0["fault"] ?? "?")@\($0["connection"] ?? "?")#\($0["connectionRequest"] ?? "?")" }
        #expect(attempts.count == 3, "\(attempts)")
        #expect(Set((entries ?? []).compactMap { $0["connection"] as? Int }).count == 3, "each step on its own connection: \(attempts)")
    }
}
