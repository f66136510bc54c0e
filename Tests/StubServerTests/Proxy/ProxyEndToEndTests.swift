import Foundation
import Testing
import StubdTestSupport
import TargetModel
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// `--proxy-unmatched`: stubs answer where they match; everything else goes to a real upstream
/// (here another stubd) and its answer comes back, without any loop waiting for it.
@Suite(.tags(.process)) struct ProxyEndToEndTests {
    static func upstream() throws -> TestServer {
        try TestServer(fixtures: [
            route("/api/up", outcome: ok("from upstream", status: 201, headers: [NameValue("X-Up", "1")])),
            route("/api/echo", method: "POST", body: .json(.object([("a", .number(1))])), outcome: ok("posted")),
            route("/api/slow", outcome: ok("slow"), delay: 1.0),
        ])
    }

    @Test func aMissIsForwardedAndAStubStillAnswers() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let proxy = try ProxyUpstream(url: upstream.url("/api/"))
        let server = try TestServer(fixtures: [route("/local", outcome: ok("stub"))], proxy: proxy)
        defer { server.stop() }
        #expect(try Curl.run([server.url("/local")]).stdout == "stub")
        let forwarded = try Curl.run(["-i", server.url("/up")])
        #expect(forwarded.stdout.hasPrefix("HTTP/1.1 201"))
        #expect(forwarded.stdout.contains("X-Up: 1\r\n"))
        #expect(forwarded.stdout.hasSuffix("\r\n\r\nfrom upstream"))
        // HEAD: the upstream's Content-Length, no body.
        let head = try Curl.run(["-I", server.url("/up")])
        #expect(head.stdout.hasPrefix("HTTP/1.1 201") && head.stdout.contains("Content-Length: 13\r\n"), "\(head.stdout)")
        let posted = try Curl.run(["-H", "Content-Type: application/json", "--data", #"{"a": 1}"#, server.url("/echo")])
        #expect(posted.stdout == "posted")
        // The upstream saw its own Host and the forwarding headers.
        let seen = try #require(upstream.server.requests(JournalQuery(path: "/api/up")).first)
        #expect(seen.headers.first { $0.name.lowercased() == "host" }?.value == "127.0.0.1:\(upstream.port)")
        #expect(seen.headers.contains { $0.name == "X-Forwarded-For" && $0.value == "127.0.0.1" })
        #expect(server.server.requests(JournalQuery(path: "/up")).first?.nearMiss == "proxied to \(proxy)")
    }

    /// Twenty requests to an upstream that takes 1 s each, through one event loop, finish in
    /// about 1 s: the loop never waits for the upstream.
    @Test func slowUpstreamCallsRunTogetherOnOneLoop() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let server = try TestServer(fixtures: [], proxy: try ProxyUpstream(url: upstream.url("/api"))) { $0.workers = 1 }
        defer { server.stop() }
        let outcome = RawHTTP.concurrent(count: 20, port: server.port, request: "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(outcome.statuses == Array(repeating: 200, count: 20))
        #expect(outcome.seconds >= 1.0)
        #expect(outcome.seconds < 4.0, "serially this would take 20 s")
    }

    /// Stopping while upstream calls are under way frees them (no callback, no crash; the
    /// sanitizer runs check the memory) and the client's connection ends.
    @Test func stoppingWithUpstreamCallsUnderWayFreesThem() throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let probe = ArrivalProbe()
        let server = try TestServer(fixtures: [], observers: [probe], proxy: try ProxyUpstream(url: upstream.url("/api"))) { $0.workers = 1 }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        client.arguments = ["--silent", "--max-time", "10", server.url("/slow")]
        client.standardOutput = FileHandle.nullDevice
        try client.run()
        #expect(probe.waitForArrival(of: "/slow"))
        server.stop()
        client.waitUntilExit()
        #expect(client.terminationStatus != 0, "the client's connection was closed without an answer")
    }

    /// A client that reads a large proxied body slowly is served at its pace, not dropped and
    /// not buffered for: while it does not read, stubd stops reading the upstream, whose own
    /// progress stalls far short of the body's 64 MiB (without the pause stubd read it all into
    /// memory at once); then the client reads every byte, in order.
    @Test func aSlowReaderOfALargeProxiedBodyHoldsTheUpstreamBack() throws {
        let total = 64 << 20
        let upstream = try PythonUpstream(handler: """
                sent = 0
                finished = __import__("threading").Event()
                def do_GET(self):
                    if self.path.startswith("/progress"):
                        # With ?wait: first waits up to 2 s for the whole body to have been sent.
                        if "wait" in self.path: Handler.finished.wait(2)
                        body = str(Handler.sent).encode()
                        self.send_response(200)
                        self.send_header("Content-Length", str(len(body)))
                        self.end_headers()
                        self.wfile.write(body)
                        return
                    piece = bytes(i % 251 for i in range(65536))
                    self.send_response(200)
                    self.send_header("Content-Length", str(\(total)))
                    self.end_headers()
                    for _ in range(\(total) // 65536):
                        self.wfile.write(piece)
                        Handler.sent += len(piece)
                    Handler.finished.set()
            """, tls: false)
        defer { upstream.stop() }
        let server = try TestServer(fixtures: [], proxy: try ProxyUpstream(url: upstream.baseURL)) { $0.workers = 1 }
        defer { server.stop() }
        let output = try HTTPSEndToEndTests.python("""
            import socket, urllib.request
            def progress():
                return int(urllib.request.urlopen("\(upstream.baseURL)/progress").read())
            client = socket.socket()
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
            client.connect(("127.0.0.1", \(server.port)))
            client.sendall(b"GET /huge HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
            # Not reading: give the upstream 2 s to send the whole body (it would, if stubd read
            # it all), waiting on its own "finished" event rather than polling.
            last = int(urllib.request.urlopen("\(upstream.baseURL)/progress?wait").read())
            print("stalled at", last)
            received, head, expected = 0, b"", bytes(i % 251 for i in range(65536)) * 2
            while b"\\r\\n\\r\\n" not in head:
                head += client.recv(65536)
            head, _, rest = head.partition(b"\\r\\n\\r\\n")
            ok = head.startswith(b"HTTP/1.1 200") and b"Content-Length: \(total)" in head
            data = rest
            client.settimeout(20)
            while received + len(data) < \(total):
                ok = ok and data == expected[received % 65536:received % 65536 + len(data)] if len(data) <= 65536 else ok
                received += len(data)
                data = client.recv(65536)
                if not data:
                    break
            received += len(data)
            print("received", received, "in order" if ok else "out of order", "upstream sent", progress())
            """)
        let lines = output.split(separator: "\n").map(String.init)
        let stalled = Int(lines.first?.split(separator: " ").last ?? "") ?? total
        #expect(stalled < total / 3, "the upstream sent \(stalled) bytes while the client read none: \(output)")
        #expect(lines.count == 2 && lines[1] == "received \(total) in order upstream sent \(total)", "\(output)")
    }

    @Test func anUnreachableUpstreamIsA502NamingIt() throws {
        let port = try TestServer(fixtures: []).stoppedPort()
        let proxy = try ProxyUpstream(url: "http://127.0.0.1:\(port)")
        let server = try TestServer(fixtures: [], proxy: proxy)
        defer { server.stop() }
        let result = try Curl.run(["-w", "\n%{http_code}", server.url("/anything")])
        #expect(result.stdout.hasSuffix("\n502"))
        #expect(result.stdout.contains("\"upstream\": \"http://127.0.0.1:\(port)\""), "\(result.stdout)")
    }

    @Test(arguments: [("ftp://api.example.com", "give an http:// or https:// upstream"), ("not a url", "is not a URL"),
                      ("http://h/x?y=1", "without a query")])
    func badUpstreamURLsAreRefused(url: String, message: String) {
        #expect(throws: ProxyUpstream.Invalid.self) { try ProxyUpstream(url: url) }
        #expect((try? ProxyUpstream(url: url)) == nil)
        do { _ = try ProxyUpstream(url: url) } catch { #expect(error.description.contains(message), "\(error)") }
    }
}

/// HTTPS upstreams: verified against the given CA with SNI and host-name checks; an unknown CA
/// or a wrong name is a 502 naming the TLS reason; `--insecure-upstream` skips the checks.
@Suite(.serialized, .tags(.process)) struct TLSProxyEndToEndTests {
    static func answer(_ proxy: ProxyUpstream) throws -> String {
        let server = try TestServer(fixtures: [], proxy: proxy)
        defer { server.stop() }
        return try Curl.run(["-w", "\n%{http_code}", server.url("/hello?x=1")]).stdout
    }

    @Test func anHTTPSUpstreamWithItsCAIsReached() throws {
        let upstream = try PythonUpstream()
        defer { upstream.stop() }
        let answer = try Self.answer(try ProxyUpstream(url: "https://localhost:\(upstream.port)/base", caFile: upstream.caFile))
        #expect(answer == "secure /base/hello?x=1\n200")
    }

    @Test func anUnknownCAIsRefused() throws {
        let upstream = try PythonUpstream()
        defer { upstream.stop() }
        let answer = try Self.answer(try ProxyUpstream(url: "https://localhost:\(upstream.port)"))
        #expect(answer.hasSuffix("\n502"))
        #expect(answer.contains("TLS: the upstream's certificate was refused (unable to get local issuer certificate)"), "\(answer)")
    }

    @Test func aWrongHostNameIsRefused() throws {
        let upstream = try PythonUpstream()
        defer { upstream.stop() }
        let answer = try Self.answer(try ProxyUpstream(url: "https://127.0.0.1:\(upstream.port)", caFile: upstream.caFile))
        #expect(answer.hasSuffix("\n502"))
        #expect(answer.contains("mismatch)"), "\(answer)")
    }

    @Test func insecureSkipsTheChecksWhenAsked() throws {
        let upstream = try PythonUpstream()
        defer { upstream.stop() }
        let answer = try Self.answer(try ProxyUpstream(url: "https://127.0.0.1:\(upstream.port)", insecure: true))
        #expect(answer == "secure /hello?x=1\n200")
    }
}
