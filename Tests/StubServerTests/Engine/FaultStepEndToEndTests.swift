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

/// A sequence step that fails without a response byte reaches every client as one failure,
/// although clients silently re-send a request that got no byte (curl and URLSession on a reused
/// connection, Java's HttpClient and aiohttp always): it goes as a response that fails before the
/// status (or, where the route says, inside the body), the same bytes whoever asks, and the
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
            Fixture(name: "head-reset", source: "test", request: RequestPattern(method: "HEAD", path: "/head-reset"),
                    outcomes: [.fault(.reset), ok("ok")]),
            route("/always-reset", outcome: .fault(.reset)),
        ]
    }

    static let cutBody = "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\n"
    static let brokenFraming = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n"

    /// curl re-sends a request whose reused connection dies before a byte ("Connection died,
    /// retrying a fresh connect"); one invocation with three URLs sees the fault as exit 18.
    @Test(arguments: ["/flaky", "/flaky-empty"])
    func curlSeesTheFaultStepInOneInvocation(path: String) throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let url = server.url(path)
        let result = try Curl.run(["-w", " %{http_code} %{exitcode}\n", server.url("/warm"), url, url, url])
        #expect(result.stdout.split(separator: "\n") == ["warm 200 0", "first 500 0", " 502 18", "ok 200 0"], "\(result.stderr)")
        let journal = try JournalReader(server).entries(path: path)
        #expect(journal.count == 3, "no silent re-send: \(journal)")
    }

    @Test func curlSeesAFirstStepResetAfterAnotherRouteOnTheSameConnection() throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let url = server.url("/reset-first")
        let result = try Curl.run(["-w", " %{http_code} %{exitcode}\n", server.url("/warm"), url, url])
        #expect(result.stdout.split(separator: "\n") == ["warm 200 0", " 502 18", "ok 200 0"], "\(result.stderr)")
    }

    /// One URLSession (connections reused, as in an app): 500, then the fault, then ok.
    @Test(arguments: ["/flaky", "/flaky-empty"])
    func urlSessionSeesTheFaultStep(path: String) async throws {
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
                seen.append("error")
            }
        }
        #expect(seen == ["200", "500", "error", "200"])
    }

    /// What a step sends never depends on who asks: a browser's Fetch Metadata, a Mozilla/
    /// User-Agent, Java's (which re-sends a GET even on a fresh connection), Python requests' —
    /// on a fresh connection and on a reused one, every request gets the same head with two
    /// lengths and takes the step, so the next request reads ok, HEAD included. A route without steps keeps its authored reset.
    @Test(arguments: ["Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n", "User-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0\r\n",
                      "User-Agent: Java-http-client/17.0.15\r\n", "User-Agent: python-requests/2.32.3\r\n", "User-Agent: Python/3.11 aiohttp/3.14.5\r\n",
                      "User-Agent: curl/7.88.1\r\n"])
    func aFaultStepIsTheSameBytesForEveryUserAgent(clientHeader: String) throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        for (method, path, expected) in [("GET", "/reset-first", Self.brokenFraming), ("GET", "/flaky", Self.brokenFraming), ("HEAD", "/head-reset", Self.brokenFraming)] {
            for reused in [false, true] {
                try JournalReader(server).reset()
                let kept = RawHTTP.connectLoopback(port: server.port)
                defer { close(kept) }
                if reused { #expect(RawHTTP.roundTrip(kept, "GET /warm HTTP/1.1\r\nHost: x\r\n\(clientHeader)\r\n").hasSuffix("warm")) }
                if path == "/flaky" {
                    let first = RawHTTP.exchange(port: server.port, bytes: Array("GET /flaky HTTP/1.1\r\nHost: x\r\n\(clientHeader)Connection: close\r\n\r\n".utf8))
                    #expect(String(decoding: first, as: UTF8.self).hasSuffix("first"))
                }
                #expect(RawHTTP.roundTrip(kept, "\(method) \(path) HTTP/1.1\r\nHost: x\r\n\(clientHeader)\r\n") == expected,
                        "\(method) \(path), reused: \(reused)")
                let next = RawHTTP.exchange(port: server.port, bytes: Array("\(method) \(path) HTTP/1.1\r\nHost: x\r\n\(clientHeader)Connection: close\r\n\r\n".utf8))
                #expect(String(decoding: next, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"), "\(path): the step was taken")
                if method == "GET" { #expect(String(decoding: next, as: UTF8.self).hasSuffix("\r\n\r\nok")) }
            }
        }
        let plain = RawHTTP.exchange(port: server.port, bytes: Array("GET /always-reset HTTP/1.1\r\nHost: x\r\n\(clientHeader)\r\n".utf8))
        #expect(plain.isEmpty, "a route without steps resets: \(String(decoding: plain, as: UTF8.self))")
        // The journal says how each fault went.
        let faults = try JournalReader(server).entries().compactMap { entry in
            (entry["fault"] as? String).map { "\(entry["path"] ?? "?") \($0) \(entry["faultSentAs"] ?? "as written")" }
        }
        #expect(faults.suffix(2) == ["/head-reset reset beforeStatus", "/always-reset reset as written"])
    }

    /// Where a step fails: by default before any status whatever the method (the head with two
    /// lengths: curl reads a 502 and exits 18), with `"faultSteps": "inBody"` inside the body of a
    /// 200 (curl reads 200 and exits 18; HEAD still gets the head with two lengths). Each step is
    /// taken, and the journal says how it went. A route without steps is not touched by either.
    @Test func aRoutePlacesItsFaultStepsBeforeTheStatusOrInTheBody() throws {
        let before = Fixture(name: "before", source: "test", request: RequestPattern(method: "GET", path: "/before"),
                             outcomes: [.fault(.reset), ok("ok")])
        var inBody = Fixture(name: "in-body", source: "test", request: RequestPattern(method: "GET", path: "/in-body"), outcomes: [.fault(.reset), ok("ok")])
        inBody.faultSteps = .inBody
        var inBodyHead = Fixture(name: "in-body-head", source: "test", request: RequestPattern(method: "HEAD", path: "/in-body"), outcomes: [.fault(.empty), ok("ok")])
        inBodyHead.faultSteps = .inBody
        var plain = Fixture(name: "plain", source: "test", request: RequestPattern(method: "GET", path: "/plain"), outcomes: [.fault(.reset)])
        plain.faultSteps = .inBody
        let server = try TestServer(fixtures: [before, inBody, inBodyHead, plain])
        defer { server.stop() }
        #expect(String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("GET /before HTTP/1.1\r\nHost: x\r\n\r\n".utf8)), as: UTF8.self) == Self.brokenFraming)
        #expect(String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("GET /in-body HTTP/1.1\r\nHost: x\r\n\r\n".utf8)), as: UTF8.self) == Self.cutBody)
        #expect(String(decoding: RawHTTP.exchange(port: server.port, bytes: Array("HEAD /in-body HTTP/1.1\r\nHost: x\r\n\r\n".utf8)), as: UTF8.self) == Self.brokenFraming)
        try JournalReader(server).reset()
        let url = server.url("/before")
        let result = try Curl.run(["-w", " %{http_code} %{exitcode}\n", url, url])
        #expect(result.stdout.split(separator: "\n").map(String.init) == [" 502 18", "ok 200 0"], "\(result.stderr)")
        let plainReply = RawHTTP.exchange(port: server.port, bytes: Array("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(plainReply.isEmpty, "a route without steps resets as written")
        let faults = try JournalReader(server).entries().compactMap { entry in
            (entry["fault"] as? String).map { "\(entry["path"] ?? "?") \($0) \(entry["faultSentAs"] ?? "as written")" }
        }
        #expect(faults == ["/before reset beforeStatus", "/plain reset as written"])
    }

    /// With `"faultSteps": "inBody"` curl reads the step's 200 head and exits 18 (the body cut),
    /// and the journal says `cutShort`.
    @Test func anInBodyStepIsA200WhoseBodyIsCut() throws {
        var inBody = Fixture(name: "in-body", source: "test", request: RequestPattern(method: "GET", path: "/in-body"), outcomes: [.fault(.reset), ok("ok")])
        inBody.faultSteps = .inBody
        let server = try TestServer(fixtures: [inBody])
        defer { server.stop() }
        let url = server.url("/in-body")
        let result = try Curl.run(["-w", " %{http_code} %{exitcode}\n", url, url])
        #expect(result.stdout.split(separator: "\n").map(String.init) == [" 200 18", "ok 200 0"], "\(result.stderr)")
        let faults = try JournalReader(server).entries().compactMap { entry in (entry["faultSentAs"] as? String) }
        #expect(faults == ["cutShort"])
    }

    /// A `hang` step still hangs; at the cap its connection ends with the step's response (a bare
    /// close would be re-sent), and the step is used.
    @Test func aHangStepEndsWithItsResponseAtTheCap() throws {
        let hang = Fixture(name: "hang-first", source: "test", request: RequestPattern(method: "GET", path: "/hang-first"),
                           outcomes: [.fault(.hang), ok("ok")])
        let server = try TestServer(fixtures: [hang]) { $0.hangCapSeconds = 0.3 }
        defer { server.stop() }
        let start = Date()
        let reply = RawHTTP.exchange(port: server.port, bytes: Array("GET /hang-first HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(Date().timeIntervalSince(start) >= 0.3)
        #expect(String(decoding: reply, as: UTF8.self) == Self.brokenFraming)
        let next = RawHTTP.exchange(port: server.port, bytes: Array("GET /hang-first HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(String(decoding: next, as: UTF8.self).hasSuffix("\r\n\r\nok"))
    }

    /// Replies keep their connections alive whatever step is next, and the journal lists each
    /// attempt with its connection number and place on it: curl's three requests of
    /// `[500, reset, ok]` are three attempts, the first two on one connection.
    @Test func repliesBeforeAFaultStepKeepTheirConnectionAndTheJournalShowsConnections() throws {
        let server = try TestServer(fixtures: Self.fixtures())
        defer { server.stop() }
        let before = try Curl.run(["-i", server.url("/flaky")])
        #expect(!before.stdout.lowercased().contains("connection: close"), "the reply before the reset step keeps its connection")
        try JournalReader(server).reset()
        let url = server.url("/flaky")
        _ = try Curl.run([url, url, url])
        let entries = try JournalReader(server).entries(path: "/flaky")
        let attempts = entries.map { "\($0["status"] ?? $0["fault"] ?? "?")@\($0["connection"] ?? "?")#\($0["connectionRequest"] ?? "?")" }
        #expect(attempts.count == 3, "\(attempts)")
        #expect(Set(entries.prefix(2).compactMap { $0["connection"] as? Int }).count == 1, "500 and the step on one connection: \(attempts)")
    }
}

/// The journal of a test server, newest last.
private struct JournalReader {
    let server: TestServer
    init(_ server: TestServer) { self.server = server }

    /// The admin reset: sequences back to their first step, the journal emptied.
    func reset() throws {
        let result = try Curl.run(["-s", "-X", "POST", "-o", "/dev/null", "-w", "%{http_code}", server.url("/__stubd/reset")])
        #expect(result.stdout == "200", "reset: \(result.stdout) \(result.stderr)")
    }

    func entries(path: String? = nil) throws -> [[String: Any]] {
        let journal = try Curl.run([server.url("/__stubd/requests" + (path.map { "?path=\($0)" } ?? ""))]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(journal.utf8)) as? [String: Any]
        return try #require(object?["requests"] as? [[String: Any]], "\(journal)")
    }
}
