import Foundation
import Testing
import StubdTestTags

/// `stubd record` as a user runs it: banner, a line per request, the summary on SIGINT, exit 64
/// for a bad `--upstream`, an error before anything is proxied for an output that cannot be
/// written, and `kill -9` in the middle of a busy recording leaving only valid fixtures.
@Suite(.tags(.process)) struct RecordCommandTests {
    /// An upstream stubd: any `/items/{id}`, and `/tick` whose answer changes every call.
    static func upstream() throws -> ServingStubd {
        let root = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [
              {"request": {"method": "GET", "pathTemplate": "/items/{id}"}, "response": {"json": {"item": true, "padding": "\#(String(repeating: "x", count: 2000))"}}},
              {"request": {"method": "GET", "pathTemplate": "/items/{id}", "query": {"api_key": {"present": true}}}, "response": {"json": {"item": true}}},
              {"request": {"method": "GET", "path": "/tick"}, "responses": [{"text": "1"}, {"text": "2"}, {"text": "3"}], "afterLast": "cycle"}
            ]}
            """#])
        return try ServingStubd([root, "--port", "0", "--quiet"])
    }

    @Test func recordsAndPrintsTheSummaryOnSIGINT() throws {
        let upstream = try Self.upstream()
        defer { _ = upstream.stop() }
        let out = try StubdProcess.temporaryFolder([:]) + "/recorded"
        let recorder = try ServingStubd(executable: StubdProcess.executable,
                                        arguments: ["record", "--upstream", upstream.baseURL, "--out", out, "--port", "0", "--sequences"])
        #expect(recorder.banner == "stubd: recording \(upstream.baseURL) into \(out) on \(recorder.baseURL)")
        #expect(StubdProcess.curl(["-H", "Authorization: Bearer SECRET-9", recorder.baseURL + "/items/7?api_key=SECRET-10"]).contains("\"item\":true"))
        for expected in ["1", "2"] { #expect(StubdProcess.curl([recorder.baseURL + "/tick"]) == expected) }
        #expect(recorder.waitForStderr(containing: "recorded GET /tick → \(out)/GET-tick.json"))
        let stopped = recorder.stop(signal: SIGINT)
        #expect(stopped.status == 0)
        #expect(stopped.stdout.contains("stubd: recorded 3 request(s) from \(upstream.baseURL) into \(out): 2 fixture file(s) written\n"), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("recorded as responses sequences"))
        #expect(stopped.stdout.contains("stubd: redacted values of: api_key\n"), "\(stopped.stdout)")
        #expect(stopped.stderr.contains("GET /items/7?api_key=[redacted] 200 PROXY"), "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("SECRET-10") && !stopped.stdout.contains("SECRET-10"))
        let check = try StubdProcess.run(["check", out])
        #expect(check.status == 0 && check.stdout.contains("2 routes OK"), "\(check.stdout)\(check.stderr)")
        let replay = try ServingStubd([out, "--port", "0", "--quiet"])
        defer { _ = replay.stop() }
        #expect(StubdProcess.curl([replay.baseURL + "/items/7?api_key=other"]).contains("\"item\":true"))
        #expect([StubdProcess.curl([replay.baseURL + "/tick"]), StubdProcess.curl([replay.baseURL + "/tick"])] == ["1", "2"])
    }

    /// `serve --proxy-unmatched URL --record DIR`: the demo's stubs answer and are not recorded,
    /// misses are forwarded and written; SIGTERM prints the summary.
    @Test func serveRecordsOnlyWhatItForwards() throws {
        let upstream = try Self.upstream()
        defer { _ = upstream.stop() }
        let out = try StubdProcess.temporaryFolder([:]) + "/misses"
        let stubd = try ServingStubd(["--port", "0", "--proxy-unmatched", upstream.baseURL, "--record", out])
        #expect(StubdProcess.curl([stubd.baseURL + "/zen"]) == "Design for failure.")
        #expect(StubdProcess.curl([stubd.baseURL + "/tick"]) == "1")
        let stopped = stubd.stop()
        #expect(stopped.stdout.contains("stubd: recorded 1 request(s) from \(upstream.baseURL) into \(out): 1 fixture file(s) written\n"), "\(stopped.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["GET-tick.json", "__files"])
    }

    @Test func badInputIsRefusedBeforeAnythingIsProxied() throws {
        let bad = try StubdProcess.run(["record", "--upstream", "ftp://api.example.com"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--upstream \"ftp://api.example.com\": give an http:// or https:// upstream"), "\(bad.stderr)")
        let file = try StubdProcess.temporaryFolder(["plain": "x"]) + "/plain"
        let unwritable = try StubdProcess.run(["record", "--upstream", "http://127.0.0.1:9", "--out", file, "--port", "0"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("stubd: error: --out \(file) is a file, not a folder"), "\(unwritable.stderr)")
        #expect(!unwritable.stdout.contains("recording"))
        let noProxy = try StubdProcess.run(["serve", "--record", "x", "--port", "0"])
        #expect(noProxy.status == 64 && noProxy.stderr.contains("--record needs --proxy-unmatched"), "\(noProxy.stderr)")
    }

    /// `kill -9` while a client fires distinct and repeated requests as fast as it can: every
    /// file left in the folder is whole (`stubd check` accepts the folder), none half-written.
    @Test func killDashNineDuringABusyRecordingLeavesOnlyValidFixtures() throws {
        let upstream = try Self.upstream()
        defer { _ = upstream.stop() }
        let out = try StubdProcess.temporaryFolder([:]) + "/recorded"
        let recorder = try ServingStubd(executable: StubdProcess.executable,
                                        arguments: ["record", "--upstream", upstream.baseURL, "--out", out, "--port", "0", "--sequences", "--quiet"])
        // Two curl processes, each with 3,000 URLs on one keep-alive connection.
        let config = try StubdProcess.temporaryFolder([:]) + ".curl"
        let lines = (0..<3000).map { index in "url = \"\(recorder.baseURL)\(index % 3 == 0 ? "/tick" : "/items/\(index)")\"\noutput = \"/dev/null\"" }
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: config))
        let clients = try (0..<2).map { _ in
            let client = Process()
            client.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            client.arguments = ["--silent", "--max-time", "20", "-K", config]
            try client.run()
            return client
        }
        func fixtureFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        }
        // The recorder logs each file it has written ("recorded … → FILE"): wait until 50 distinct
        // files are logged, then kill it mid-stream.
        _ = recorder.waitForStderr(timeout: 10) { text in
            Set(text.components(separatedBy: "\n").compactMap { $0.components(separatedBy: " → ").dropFirst().first }).count >= 50
        }
        kill(recorder.process.processIdentifier, SIGKILL)
        recorder.process.waitUntilExit()
        for client in clients { client.terminate(); client.waitUntilExit() }
        let written = fixtureFiles()
        #expect(written.count >= 50)
        let check = try StubdProcess.run(["check", out])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("\(written.count) routes OK"), "\(check.stdout)")
    }
}
