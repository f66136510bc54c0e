import Foundation
import Synchronization
import Testing
import StubdTestSupport
import FixtureFiles
import TargetModel
@testable import Recording
@testable import StubServer
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// `stubd record` as a library: a real upstream (Python's http.server, plain HTTP or HTTPS with
/// a CA made at test time) recorded through stubd's proxy, then the written folder served by a
/// plain stubd and compared answer by answer; secrets searched for in every written byte. What
/// the recorder decides for each answer (scrubbing, keep, repeats, hand-written files, a missing
/// upstream) is checked in memory: `RecordingServingTests`.
@Suite(.serialized, .tags(.process)) struct RecordingEndToEndTests {
    /// The API being recorded: JSON (with a cookie), laid-out JSON, text, binary, gzip, deflate,
    /// an undecodable gzip, 404, 500, a search with a key, a counter, a slow call, a login.
    static let api = """
            arrivals = __import__("threading").Barrier(20, timeout=10)
            released = __import__("threading").Event()
            def answer(self, status, body, ctype=None, extra=()):
                self.send_response(status)
                if ctype: self.send_header("Content-Type", ctype)
                for name, value in extra: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD": self.wfile.write(body)
            def do_GET(self):
                p = self.path
                if p == "/users/octocat":
                    self.answer(200, b'{"login":"octocat","id":1}', "application/json; charset=utf-8",
                                [("Set-Cookie", "session=COOKIE-SECRET-1; Path=/"), ("ETag", '"v1"'), ("X-Request-Id", "abc")])
                elif p == "/pretty": self.answer(200, json.dumps({"a": 1, "b": [1, 2]}, indent=2).encode(), "application/json")
                elif p == "/text": self.answer(200, "hello text ✓".encode(), "text/plain; charset=utf-8")
                elif p == "/logo.png": self.answer(200, bytes(range(256)) * 4, "image/png")
                elif p == "/gzip": self.answer(200, gzip.compress(b'{"zipped":true}'), "application/json", [("Content-Encoding", "gzip")])
                elif p == "/deflate": self.answer(200, zlib.compress(b"deflated text"), "text/plain", [("Content-Encoding", "deflate")])
                elif p == "/badgzip": self.answer(200, b"not gzip at all", "text/plain", [("Content-Encoding", "gzip")])
                elif p == "/missing": self.answer(404, b'{"message":"Not Found"}', "application/json")
                elif p == "/boom": self.answer(500, b"internal error", "text/plain")
                elif p.startswith("/search"):
                    self.answer(200, json.dumps({"q": p.split("q=")[1].split("&")[0]}, separators=(",", ":")).encode(), "application/json")
                elif p == "/counter":
                    Handler.count = getattr(Handler, "count", 0) + 1
                    self.answer(200, ('{"n":%d}' % Handler.count).encode(), "application/json")
                elif p == "/slow":
                    # Answered only once all twenty have arrived: a proxy that sent them one by
                    # one would never fill the barrier (503 after 10 s).
                    try:
                        Handler.arrivals.wait()
                        self.answer(200, b"slow", "text/plain")
                    except Exception:
                        self.answer(503, b"the twenty requests did not arrive together", "text/plain")
                elif p == "/big": self.answer(200, bytes(i * 7 % 251 for i in range(3 << 20)), "application/octet-stream")
                elif p == "/stream":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    # The second piece waits until the test has seen the first one through stubd
                    # and asks for it (GET /release), or 10 s.
                    for piece in [b"first ", b"second"]:
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(piece), piece))
                        self.wfile.flush()
                        Handler.released.wait(10)
                    self.wfile.write(b"0\\r\\n\\r\\n")
                elif p == "/events":
                    # An event stream whose events come 0.3 s apart, one of them naming a token.
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    for event in [b'data: {"n":1,"access_token":"EVENT-SECRET-3"}\\n\\n', b"data: echo EVENT-SECRET-3\\n\\n", b"event: done\\ndata: bye\\n\\n"]:
                        __import__("time").sleep(0.3)
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(event), event))
                        self.wfile.flush()
                    self.wfile.write(b"0\\r\\n\\r\\n")
                elif p == "/release":
                    Handler.released.set()
                    self.answer(200, b"released", "text/plain")
                else: self.answer(404, b"no such page", "text/plain")
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path == "/login": self.answer(200, b'{"token":"TOKEN-SECRET-2","user":"u"}', "application/json")
                else: self.answer(201, b"created", "text/plain")
        """

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Records `requests` (curl argument lists, URL last as a path) from `upstream` into `out`.
    static func record(_ requests: [[String]], upstream: String, caFile: String? = nil, options: RecordingOptions) throws -> (RecordingSummary, [CurlResult]) {
        let proxy = try ProxyUpstream(url: upstream, caFile: caFile)
        let recorder = try Recorder(upstream: proxy.description, options: options)
        let server = try TestServer(fixtures: [], proxy: proxy, recorder: recorder)
        let results = try requests.map { arguments in try Curl.run(Array(arguments.dropLast()) + [server.url(arguments.last!)]) }
        server.stop()
        return (recorder.finish(), results)
    }

    static func replay(_ requests: [[String]], from out: String) throws -> [CurlResult] {
        let server = try TestServer(fixtures: try FixtureLoader.load(paths: [out]))
        defer { server.stop() }
        return try requests.map { arguments in try Curl.run(Array(arguments.dropLast()) + [server.url(arguments.last!)]) }
    }

    /// Status line, the headers a fixture keeps, and the body bytes of a `curl -i` answer.
    static func essentials(_ result: CurlResult) -> (status: String, headers: [String], body: Data) {
        let separator = result.data.range(of: Data("\r\n\r\n".utf8))!
        let head = String(decoding: result.data[..<separator.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let kept = head.dropFirst().filter { line in
            let name = line.prefix { $0 != ":" }.lowercased()
            return ["content-type", "etag", "x-request-id", "set-cookie"].contains(name)
        }
        return (String(head[0].prefix(12)), kept.sorted(), result.data[separator.upperBound...])
    }

    @Test func recordThenReplayGivesTheSameStatusHeadersAndBytes() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let requests: [[String]] = [
            ["-i", "/users/octocat"], ["-i", "/pretty"], ["-i", "/text"], ["-i", "/logo.png"], ["-i", "--compressed", "/gzip"],
            ["-i", "--compressed", "/deflate"], ["-i", "/missing"], ["-i", "/boom"],
            ["-i", "/search?q=a"], ["-i", "/search?q=b"], ["-i", "-H", "Content-Type: application/json", "--data", #"{"b":2,"a":1}"#, "/post-json"],
        ]
        let (summary, recorded) = try Self.record(requests, upstream: upstream.baseURL, options: RecordingOptions(out: out))
        #expect(summary.requests == requests.count)
        #expect(summary.files.count == requests.count)
        let replayed = try Self.replay(requests, from: out)
        for (index, pair) in zip(recorded, replayed).enumerated() {
            let (got, want) = (Self.essentials(pair.1), Self.essentials(pair.0))
            let label = requests[index].last!
            #expect(got.status == want.status, "\(label)")
            #expect(got.body == want.body, "\(label): \(got.body.count) bytes replayed, \(want.body.count) recorded")
            // Set-Cookie is redacted in the fixture: compared below, not here.
            #expect(got.headers.filter { !$0.lowercased().hasPrefix("set-cookie") } == want.headers.filter { !$0.lowercased().hasPrefix("set-cookie") }, "\(label)")
        }
        // How each body was stored.
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(files.isSuperset(of: ["GET-users-octocat.json", "GET-pretty.json", "GET-logo.png.json", "GET-search.json", "__files"]))
        #expect(files.contains { $0.hasPrefix("GET-search-") && $0.count == "GET-search-123456.json".count }, "\(files)")
        let octocat = try String(contentsOfFile: out + "/GET-users-octocat.json", encoding: .utf8)
        #expect(octocat.contains("\"json\": {\n          \"login\": \"octocat\""), "JSON kept as json, pretty, upstream key order: \(octocat)")
        #expect(octocat.contains("\"recordedFrom\""))
        let gzipped = try String(contentsOfFile: out + "/GET-gzip.json", encoding: .utf8)
        #expect(gzipped.contains("\"zipped\": true") && !gzipped.contains("Content-Encoding"), "\(gzipped)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/__files/GET-logo.png.png")) == Data((0..<1024).map { UInt8($0 % 256) }))
        #expect(try String(contentsOfFile: out + "/GET-pretty.json", encoding: .utf8).contains("\"bodyFile\": \"GET-pretty.json\""))
        #expect(summary.problems.isEmpty, "\(summary.problems)")
    }

    /// A body stubd cannot decode is left out of the fixture, which says why in a header replay
    /// sends (it could hold secrets stubd cannot find); the client got the bytes as sent.
    @Test func anUndecodableBodyIsNotStored() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let (summary, recorded) = try Self.record([["-i", "/badgzip"]], upstream: upstream.baseURL, options: RecordingOptions(out: out))
        #expect(recorded[0].stdout.hasSuffix("not gzip at all"))
        let bad = try String(contentsOfFile: out + "/GET-badgzip.json", encoding: .utf8)
        #expect(summary.problems.count == 1 && summary.problems[0].contains("GET /badgzip"), "\(summary.problems)")
        #expect(bad.contains("X-Stubd-Recording-Note") && !bad.contains("\"Content-Encoding\"") && !bad.contains("bodyFile"), "\(bad)")
        let replayed = try Self.replay([["-i", "/badgzip"]], from: out)
        #expect(replayed[0].stdout.contains("X-Stubd-Recording-Note: body not recorded"), "\(replayed[0].stdout)")
    }

    /// The shapes round two found leaking: an answer the upstream would send as Brotli (stubd now
    /// asks only for codings it decodes; one sent as Brotli anyway is not stored), an OAuth
    /// form-encoded token answer, a multipart request with a mixed-case boundary; and innocent
    /// values under secret-looking names (`token_hint: none`, numbers, booleans) kept as sent.
    @Test func everyRecordingShapeIsRedactedAndInnocentValuesKept() throws {
        let upstream = try PythonUpstream(handler: """
                def answer(self, body, ctype, extra=()):
                    self.send_response(200)
                    self.send_header("Content-Type", ctype)
                    for name, value in extra: self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def do_GET(self):
                    token = b'{"access_token":"BR-SECRET-1","refresh_token":"BR-SECRET-2","id_token":"\(Self.jwt)","token_hint":"none","expires_in":3600,"password_set":false}'
                    accepted = self.headers.get("Accept-Encoding", "")
                    if self.path == "/forcebr": self.answer(b"BROTLI" + token, "application/json", [("Content-Encoding", "br")])
                    elif "br" in accepted: self.answer(b"BROTLI" + token, "application/json", [("Content-Encoding", "br")])
                    elif "gzip" in accepted: self.answer(gzip.compress(token), "application/json", [("Content-Encoding", "gzip")])
                    else: self.answer(token, "application/json")
                def do_POST(self):
                    body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    if self.path == "/oauth": self.answer(b"access_token=FORM-SECRET-3&scope=repo&token_type=bearer", "application/x-www-form-urlencoded")
                    else: self.answer(b"uploaded", "text/plain")
            """, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let multipart = "------WebKitFormBoundaryAbC\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nu\r\n"
            + "------WebKitFormBoundaryAbC\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nPART-SECRET-4\r\n------WebKitFormBoundaryAbC--\r\n"
        let (summary, answers) = try Self.record([
            ["-H", "Accept-Encoding: gzip, deflate, br", "/token"],
            ["-H", "Accept-Encoding: br", "/token-br-only"],
            ["/forcebr"],
            ["--data", "code=abc", "/oauth"],
            ["-H", "Content-Type: multipart/form-data; boundary=----WebKitFormBoundaryAbC", "--data-binary", multipart, "/upload"],
        ], upstream: upstream.baseURL, options: RecordingOptions(out: out))
        #expect(answers[3].stdout.contains("FORM-SECRET-3"), "the client gets the upstream's answer unchanged")
        let written = try Self.allBytes(under: out)
        for secret in ["BR-SECRET-1", "BR-SECRET-2", "FORM-SECRET-3", "PART-SECRET-4", Self.jwt] {
            #expect(written.range(of: Data(secret.utf8)) == nil, "\(secret) was written: \(String(decoding: written, as: UTF8.self))")
        }
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("\"token_hint\": \"none\"") && text.contains("\"expires_in\": 3600") && text.contains("\"password_set\": false"), "\(text)")
        #expect(text.contains("X-Stubd-Recording-Note"), "the file says the Brotli body was not stored")
        #expect(summary.problems.contains { $0.contains("Content-Encoding: br could not be decoded; not stored") }, "\(summary.problems)")
        #expect(Set(summary.redactedNames).isSuperset(of: ["access_token", "refresh_token", "password"]), "\(summary.redactedNames)")
        let replayed = try Self.replay([
            ["/token"],
            ["--data", "code=abc", "/oauth"],
            ["-w", " %{http_code}", "-H", "Content-Type: multipart/form-data; boundary=x", "--data-binary",
             "--x\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nu\r\n--x\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nother\r\n--x--\r\n", "/upload"],
        ], from: out)
        // A JWT stays a JWT (so an app that decodes its id_token parses the placeholder).
        #expect(replayed[0].stdout == #"{"access_token":"[redacted]","refresh_token":"[redacted]","id_token":"\#(Redactor.jwtPlaceholder)","token_hint":"none","expires_in":3600,"password_set":false}"#)
        #expect(replayed[1].stdout == "access_token=[redacted]&scope=repo&token_type=bearer")
        #expect(replayed[2].stdout == "uploaded 200", "the recorded multipart route accepts another password")
    }

    /// What a `kill -9` mid-write leaves is dealt with when the next recording starts: hidden
    /// temporary files of a dead process are removed (a running one's are not), and body files
    /// no fixture names are reported.
    @Test func leftoversOfAnInterruptedRecordingAreCleanedOrReported() throws {
        let out = try Self.folder()
        try FileManager.default.createDirectory(atPath: out + "/__files", withIntermediateDirectories: true)
        let dead = out + "/.GET-a.json.tmp-2147483646-3", deadBody = out + "/__files/.GET-a.bin.tmp-2147483646-4"
        let live = out + "/.GET-b.json.tmp-\(getpid())-1"
        for path in [dead, deadBody, live] { try Data("{".utf8).write(to: URL(fileURLWithPath: path)) }
        try Data("orphan".utf8).write(to: URL(fileURLWithPath: out + "/__files/GET-orphan.bin"))
        try Data("named".utf8).write(to: URL(fileURLWithPath: out + "/__files/GET-named.bin"))
        try Data(#"{"request": {"method": "GET", "path": "/named"}, "response": {"bodyFile": "GET-named.bin"}}"#.utf8)
            .write(to: URL(fileURLWithPath: out + "/GET-named.json"))
        let recorder = try Recorder(upstream: "http://127.0.0.1:1", options: RecordingOptions(out: out))
        #expect(!FileManager.default.fileExists(atPath: dead) && !FileManager.default.fileExists(atPath: deadBody))
        #expect(FileManager.default.fileExists(atPath: live), "a running process's temporary file is left alone")
        #expect(recorder.warnings.contains("removed 2 temporary files left by an interrupted write"), "\(recorder.warnings)")
        #expect(recorder.warnings.contains { $0.contains("no fixture names GET-orphan.bin;") }, "\(recorder.warnings)")
        #expect(!recorder.warnings.contains { $0.contains("GET-named.bin") })
        _ = recorder.finish()
    }

    /// A signed JWT (`{"alg":"RS256"}`, `{"sub":"u-1","exp":1}`).
    static let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1LTEiLCJleHAiOjF9.SldULVNJR05BVFVSRS01"

    /// A secret value that turns up outside its name — a session id in the path, a cookie copied
    /// into another query value, a token echoed in the answer — is scrubbed there too, and the
    /// fixture still answers the same request with another value.
    static func allBytes(under folder: String) throws -> Data {
        var all = Data()
        for case let file as String in FileManager.default.enumerator(atPath: folder)! {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isDirectory)
            if !isDirectory.boolValue { all += try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)) }
        }
        return all
    }

    @Test func anOutputThatIsAFileIsRefusedBeforeAnythingIsProxied() throws {
        let file = try Self.folder() + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: RecordingError.outputNotAFolder(file)) { try Recorder(upstream: "http://x", options: RecordingOptions(out: file)) }
        #expect(throws: RecordingError.self) { try Recorder(upstream: "http://x", options: RecordingOptions(out: file + "/below")) }
    }

    /// Twenty requests to an upstream that answers none of them until all twenty have arrived,
    /// recorded through one event loop: all are answered (the loop never waits for one upstream
    /// call before starting the next) and make one fixture.
    @Test func slowUpstreamCallsAreRecordedTogether() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let proxy = try ProxyUpstream(url: upstream.baseURL)
        let recorder = try Recorder(upstream: proxy.description, options: RecordingOptions(out: out))
        let server = try TestServer(fixtures: [], proxy: proxy, recorder: recorder) { $0.workers = 1 }
        let outcome = RawHTTP.concurrent(count: 20, port: server.port, request: "GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        server.stop()
        #expect(outcome.statuses == Array(repeating: 200, count: 20))
        let summary = recorder.finish()
        #expect(summary.requests == 20 && summary.files == ["GET-slow.json"])
    }

    /// Large and unknown-length bodies go to the client as they arrive (the first piece of a
    /// stream reaches the client while the upstream holds back its end, which it sends only when
    /// the client asks for it) and are still recorded whole.
    @Test func largeAndStreamedBodiesAreRelayedAsTheyArriveAndRecorded() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let proxy = try ProxyUpstream(url: upstream.baseURL)
        let recorder = try Recorder(upstream: proxy.description, options: RecordingOptions(out: out))
        let server = try TestServer(fixtures: [], proxy: proxy, recorder: recorder)
        let streamed = try HTTPSEndToEndTests.python("""
            import socket, urllib.request
            client = socket.create_connection(("127.0.0.1", \(server.port)))
            client.settimeout(10)
            client.sendall(b"GET /stream HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
            data = b""
            try:
                while b"first " not in data:
                    chunk = client.recv(65536)
                    if not chunk: break
                    data += chunk
            except socket.timeout:
                pass
            print("first piece before the end" if b"first " in data else "no first piece before the end")
            urllib.request.urlopen("\(upstream.baseURL)/release").read()
            while True:
                chunk = client.recv(65536)
                if not chunk: break
                data += chunk
            print("second piece after" if data.startswith(b"HTTP/1.1 200") and b"second" in data.split(b"first ", 1)[-1] else data[:200])
            """)
        let big = try Curl.run(["-o", "/dev/null", "-w", "%{http_code} %{size_download}", server.url("/big")])
        let again = try Curl.run([server.url("/stream")])
        server.stop()
        let summary = recorder.finish()
        #expect(streamed == "first piece before the end\nsecond piece after\n", "\(streamed)")
        #expect(big.stdout == "200 \(3 << 20)", "\(big.stdout)")
        #expect(again.stdout == "first second")
        #expect(summary.files == ["GET-big.json", "GET-stream.json"], "\(summary.files) \(summary.problems)")
        let replayedBig = try Self.replay([["/big"]], from: out)[0].data
        #expect(replayedBig == Data((0..<(3 << 20)).map { UInt8($0 * 7 % 251) }))
        #expect(try Self.replay([["/stream"]], from: out)[0].stdout == "first second")
    }

    /// A streamed upstream answer is recorded as events with their pauses, redacted event by event
    /// (a token named in one event scrubbed from another), and replayed with the same gaps.
    @Test func anEventStreamIsRecordedWithItsTimingAndReplayedAtIt() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let (summary, results) = try Self.record([["-N", "/events"]], upstream: upstream.baseURL, options: RecordingOptions(out: out))
        #expect(results[0].stdout.contains("EVENT-SECRET-3"), "the client gets the upstream's answer as it is")
        #expect(summary.files == ["GET-events.json"], "\(summary.files) \(summary.problems)")
        let written = String(decoding: try Self.allBytes(under: out), as: UTF8.self)
        #expect(!written.contains("EVENT-SECRET-3"), "\(written)")
        let fixtures = try FixtureLoader.load(paths: [out])
        guard case .stream(let stream)? = fixtures.first?.outcome else { Issue.record("not recorded as a stream: \(written)"); return }
        #expect(stream.events.count == 3 && stream.events[2].event == "done")
        #expect(stream.events.allSatisfy { ($0.delay ?? 0) >= 0.2 && ($0.delay ?? 0) <= 2 }, "\(stream.events.map(\.delay))")
        let server = try TestServer(fixtures: fixtures)
        defer { server.stop() }
        let replay = ExchangeWait(server.server, path: "/events")
        let chunks = StreamEndToEndTests.readChunks(port: server.port, path: "/events").chunks
        try #require(chunks.count == 3)
        // Replayed at the recorded pace: the stream cannot end before its recorded pauses add up.
        let replayed = try #require(replay.ended(seconds: 5), "the replay was never journaled").latencySeconds
        let recorded = stream.events.reduce(0) { $0 + ($1.delay ?? 0) }
        #expect(replayed >= recorded - 0.01, "replayed in \(replayed) s, recorded over \(recorded) s")
        #expect(String(decoding: chunks[1].bytes, as: UTF8.self) == "data: echo [redacted]\n\n")
    }

    @Test func anHTTPSUpstreamIsRecordedAndReplayed() throws {
        let upstream = try PythonUpstream()
        defer { upstream.stop() }
        let out = try Self.folder()
        let (summary, answers) = try Self.record([["/hello?x=1"]], upstream: upstream.baseURL, caFile: upstream.caFile, options: RecordingOptions(out: out))
        #expect(answers[0].stdout == "secure /hello?x=1")
        #expect(summary.files == ["GET-hello.json"])
        #expect(try Self.replay([["/hello?x=1"]], from: out)[0].stdout == "secure /hello?x=1")
    }

    /// The admin API records one scenario: misses go to the upstream and are written until stop,
    /// whose answer is the summary; afterwards misses are 404 again.
    @Test func theAdminAPIStartsAndStopsARecording() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let server = try TestServer(fixtures: [])
        defer { server.stop() }
        // Admin writes must be JSON (an HTML form cannot start a recording); stop has no body.
        let start = #"{"upstream": "\#(upstream.baseURL)", "out": "\#(out)"}"#
        #expect(try Curl.run(["-w", "%{http_code}", server.url("/text")]).stdout.hasSuffix("404"))
        let started = try Curl.run(["-w", "%{http_code}", "-H", "Content-Type: application/json", "--data", start, server.url("/__stubd/recording/start")]).stdout
        #expect(started.hasSuffix("200") && started.contains("\"recording\": true"), "\(started)")
        #expect(try Curl.run(["-w", "%{http_code}", "-H", "Content-Type: application/json", "--data", start, server.url("/__stubd/recording/start")]).stdout.hasSuffix("409"))
        #expect(try Curl.run([server.url("/text")]).stdout == "hello text ✓")
        let stopped = try Curl.run(["-X", "POST", server.url("/__stubd/recording/stop")]).stdout
        #expect(stopped.contains("\"files\": [\n    \"GET-text.json\"\n  ]"), "\(stopped)")
        #expect(try Curl.run(["-w", "%{http_code}", server.url("/text")]).stdout.hasSuffix("404"))
        #expect(try Curl.run(["-w", "%{http_code}", "-X", "POST", server.url("/__stubd/recording/stop")]).stdout.hasSuffix("409"))
        let bad = try Curl.run(["-w", "%{http_code}", "-H", "Content-Type: application/json", "--data", #"{"upstream": "ftp://x"}"#, server.url("/__stubd/recording/start")]).stdout
        #expect(bad.hasSuffix("400") && bad.contains("upstream: "), "\(bad)")
        let file = out + "/GET-text.json"
        let notAFolder = try Curl.run(["-w", "%{http_code}", "-H", "Content-Type: application/json", "--data",
                                       #"{"upstream": "\#(upstream.baseURL)", "out": "\#(file)"}"#, server.url("/__stubd/recording/start")]).stdout
        #expect(notAFolder.hasSuffix("400") && notAFolder.contains("out: \(file) is a file, not a folder"), "\(notAFolder)")
    }

    /// Stopping a recording whose files are still being written: the stop answers only after the
    /// last file, and the one loop keeps serving another client meanwhile (writes are held by
    /// a gate, so "meanwhile" is certain, not a race).
    @Test func aStopWhileFilesAreWrittenAnswersAfterTheLastFileAndTheLoopKeepsServing() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let server = try TestServer(fixtures: [route("/zen", outcome: ok("zen"))]) { $0.workers = 1 }
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        let proxy = try ProxyUpstream(url: upstream.baseURL)
        let recorder = try Recorder(upstream: proxy.description, options: RecordingOptions(out: out), log: { _ in },
                                    beforeWrite: { gate.wait() })
        try server.server.admin.forwarding.startRecording(Forwarding.Target(upstream: proxy, recorder: recorder))
        #expect(try Curl.run([server.url("/text")]).stdout == "hello text ✓")
        #expect(try Curl.run([server.url("/pretty")]).stdout.contains("\"a\": 1"))
        let stopped = Mutex<String?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let stopThread = Thread {
            let result = try? Curl.run(["-X", "POST", server.url("/__stubd/recording/stop")], maxTime: 30)
            stopped.withLock { $0 = result?.stdout ?? "curl failed" }
            answered.signal()
        }
        stopThread.start()
        // While both files wait at the gate, another client's 100 requests are all answered by the
        // one loop, and the stop has not answered.
        let urls = Array(repeating: server.url("/zen"), count: 100)
        let served = try Curl.run(["-s", "-w", "%{http_code}\n"] + urls.flatMap { ["-o", "/dev/null", $0] }, maxTime: 20)
        #expect(served.stdout.split(separator: "\n").filter { $0 == "200" }.count == 100, "\(served.stdout)")
        #expect(stopped.withLock { $0 } == nil, "the stop answered before its files were written")
        #expect(!FileManager.default.fileExists(atPath: out + "/GET-text.json"))
        gate.signal()
        gate.signal()
        #expect(answered.wait(timeout: .now() + 30) == .success)
        let summary = try #require(stopped.withLock { $0 })
        #expect(summary.contains("GET-pretty.json") && summary.contains("GET-text.json"), "\(summary)")
        #expect(FileManager.default.fileExists(atPath: out + "/GET-text.json") && FileManager.default.fileExists(atPath: out + "/GET-pretty.json"))
    }

    enum UserAPI: TargetType {
        case user(login: String)
        case logo
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String {
            switch self {
            case .user(let login): return "users/\(login)"
            case .logo: return "logo.png"
            }
        }
        var method: TargetModel.Method { .get }
        var task: Task { .requestPlain }
        var headers: [String: String]? { nil }
        var sampleData: Data { Data() }
    }

    /// Recording from a targets package: a request a target covers is written under the
    /// target's name, with its body as the plain file the app loads as `sampleData`.
    @Test func aRequestATargetCoversIsNamedAfterItWithItsSampleDataFile() throws {
        let upstream = try PythonUpstream(handler: Self.api, tls: false)
        defer { upstream.stop() }
        let out = try Self.folder()
        let compiled = try CompiledTargets.compile([UserAPI.user(login: "octocat"), UserAPI.logo], options: TargetCompileOptions(match: .shape))
        let options = RecordingOptions(out: out, targets: try RouteTable(fixtures: compiled.fixtures))
        let (summary, _) = try Self.record([["/users/octocat"], ["/logo.png"], ["/text"]], upstream: upstream.baseURL, options: options)
        #expect(summary.files == ["GET-text.json", "UserAPI.logo.json", "UserAPI.user.json"], "\(summary.files)")
        #expect(try String(contentsOfFile: out + "/__files/UserAPI.user.json", encoding: .utf8) == #"{"login":"octocat","id":1}"#)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/__files/UserAPI.logo.png")).count == 1024)
        #expect(try Self.replay([["/users/octocat"]], from: out)[0].stdout == #"{"login":"octocat","id":1}"#)
    }
}
