import Foundation
import Testing
import StubdTestTags

/// The `stubd` binary, end to end: exit codes, messages and serving.
@Suite(.serialized, .tags(.process)) struct StubdCommandTests {
    @Test func checkAcceptsTheDemoFixtures() throws {
        let result = try StubdProcess.run(["check"])
        #expect(result.status == 0)
        #expect(result.stdout == "fixtures: 8 routes OK\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func checkListsEveryProblemAsFileFieldProblemAndExits1() throws {
        let root = try StubdProcess.temporaryFolder([
            "a.json": #"{"routes": [{"request": {"method": "GET", "path": "/a"}, "response": {"status": 999}}]}"#,
            "b.json": #"{"request": {"method": "GET", "path": "/b", "verb": "x"}, "fault": "reset"}"#,
        ])
        let result = try StubdProcess.run(["check", root])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(root)/a.json: routes[0].response.status: expected an integer from 100 to 599, found 999",
            "\(root)/b.json: request.verb: unknown field; allowed here: method, path, pathTemplate, pathPattern, urlPattern, query, anyOtherQuery, headers, cookies, body, host, graphql, pathExact",
            "stubd: 2 problem(s) in \(root); nothing was served",
        ])
    }

    @Test func checkNamesBothRoutesOfAConflict() throws {
        let root = try StubdProcess.temporaryFolder([
            "a.json": #"{"name": "first", "request": {"method": "GET", "path": "/x"}, "response": {"text": "1"}}"#,
            "b.json": #"{"name": "second", "request": {"method": "GET", "path": "/x"}, "response": {"text": "2"}}"#,
        ])
        let result = try StubdProcess.run(["check", root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("second (\(root)/b.json) answers the same request as first (\(root)/a.json) (GET /x)"))
    }

    @Test func routesListsMethodPathStatusBehaviourAndSource() throws {
        let result = try StubdProcess.run(["routes"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        #expect(lines.first == ["METHOD", "PATH", "STATUS", "BEHAVIOUR", "NAME", "SOURCE"])
        #expect(lines.contains(["GET", "/zen", "200", "immediate", "zen", "fixtures/github.json", "routes[0]"]))
        #expect(lines.contains(["GET", "/search/repositories?page=1&q=swift", "stub", "200", "delayed(0.8s)",
                                "searchRepositories", "fixtures/github.json", "routes[4]"]))
        #expect(lines.contains(["GET", "/events", "fault:reset", "immediate", "events", "fixtures/github.json", "routes[7]"]))
    }

    @Test func serveServesTheDefaultFixturesLogsEachRequestAndStopsCleanlyOnSIGTERM() throws {
        let stubd = try ServingStubd(["--port", "0"])
        #expect(stubd.banner.hasPrefix("stubd: serving 8 routes from fixtures on http://127.0.0.1:"))
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["--silent", "--max-time", "5", "--output", "/dev/null", stubd.baseURL + "/zen", stubd.baseURL + "/nope"]
        try curl.run()
        curl.waitUntilExit()
        let stopped = stubd.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stdout == "stubd: admin API at /__stubd/ for this machine only (Host localhost, 127.0.0.1 or [::1])\n"
                + "stubd: dashboard: \(stubd.baseURL)/__stubd/ui\n"
                + "stubd: SIGTERM received; no new connections, finishing answers in flight (at most 5 s; a second signal stops at once)\n"
                + "stubd: SIGTERM received, stopped\n")
        #expect(stopped.stderr.contains("GET /zen 200 zen "))
        #expect(stopped.stderr.contains("GET /nope 404 MISS closest: "))
    }

    /// `--log-format json`: one JSON object per request on standard error, with its fields.
    @Test func jsonLogsOneObjectPerRequest() throws {
        let stubd = try ServingStubd(["--port", "0", "--log-format", "json"])
        _ = StubdProcess.curl([stubd.baseURL + "/zen", stubd.baseURL + "/nope"])
        #expect(stubd.waitForStderr(containing: "/nope"))
        let stopped = stubd.stop()
        let lines = try stopped.stderr.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "not JSON: \($0)")
        }
        #expect(lines.count == 2, "\(stopped.stderr)")
        #expect(lines.first?["method"] as? String == "GET")
        #expect(lines.first?["url"] as? String == "/zen")
        #expect(lines.first?["status"] as? Double == 200)
        #expect(lines.first?["route"] as? String == "zen")
        #expect(lines.last?["status"] as? Double == 404)
        #expect((lines.last?["miss"] as? String)?.hasPrefix("closest: ") == true)
    }

    /// `--proxy-unmatched`: the demo's stubs answer, a miss is the upstream's answer (here a second
    /// stubd serving other fixtures), and a bad URL is refused with the flag's name (exit 64).
    @Test func proxyUnmatchedForwardsMisses() throws {
        let root = try StubdProcess.temporaryFolder(["up.json": #"{"request": {"method": "GET", "path": "/base/only-upstream"}, "response": {"text": "upstream"}}"#])
        let upstream = try ServingStubd([root, "--port", "0"])
        defer { _ = upstream.stop() }
        let stubd = try ServingStubd(["--port", "0", "--proxy-unmatched", upstream.baseURL + "/base"])
        defer { _ = stubd.stop() }
        #expect(StubdProcess.curl([stubd.baseURL + "/zen"]) == "Design for failure.")
        #expect(StubdProcess.curl([stubd.baseURL + "/only-upstream"]) == "upstream")
        let bad = try StubdProcess.run(["serve", "--proxy-unmatched", "ftp://x"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--proxy-unmatched \"ftp://x\": give an http:// or https:// upstream"), "\(bad.stderr)")
    }

    /// `serve` is the default subcommand: a mistyped one is refused with the fix, not served as a
    /// missing folder; `-p` and `-H` are `--port` and `--host`.
    @Test func aMistypedSubcommandIsNamedAndShortFlagsWork() throws {
        for (argument, fix) in [("servee", "did you mean `stubd serve`?"), ("rotues", "did you mean `stubd routes`?"),
                                ("completion", "--generate-completion-script bash")] {
            let result = try StubdProcess.run([argument])
            #expect(result.status != 0 && result.stderr.contains("'\(argument)' is neither a folder nor a subcommand") && result.stderr.contains(fix),
                    "\(argument): \(result.status) \(result.stderr)")
        }
        let help = try StubdProcess.run(["serve", "--help"])
        #expect(help.stdout.contains("-p, --port") && help.stdout.contains("-H, --host") && help.stdout.contains("-w, --watch")
                && help.stdout.contains("-q, --quiet"), "\(help.stdout.prefix(2000))")
        // Grouped: where it listens first (the everyday flags within the first screen), the rest
        // under headings of their own, the ungrouped ones last.
        let lines = help.stdout.components(separatedBy: "\n")
        let heading = { (title: String) in lines.firstIndex(of: title) ?? Int.max }
        let port = lines.firstIndex { $0.contains("-p, --port") } ?? Int.max
        #expect(heading("WHERE IT LISTENS:") < port && port < 20 && heading("WHERE IT LISTENS:") < heading("STORED STATE LIMITS:")
                && heading("STORED STATE LIMITS:") < heading("OPTIONS:") && heading("RECORDING (WITH --RECORD):") < heading("OPTIONS:"),
                "\(help.stdout.prefix(3000))")
    }

    @Test func versionIsPrinted() throws {
        let result = try StubdProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: ".").count == 3, "\(result.stdout)")
    }

    @Test func sigintStopsTooAndQuietLogsNothing() throws {
        let stubd = try ServingStubd(["--port", "0", "--quiet"])
        let stopped = stubd.stop(signal: SIGINT)
        #expect(stopped.status == 0)
        #expect(stopped.stdout.hasSuffix("\nstubd: SIGINT received, stopped\n"))
        #expect(stopped.stderr.isEmpty)
    }

    @Test func serveOnAPortInUseExits1NamingTheFlag() throws {
        let first = try ServingStubd(["--port", "0", "--quiet"])
        defer { _ = first.stop() }
        let port = first.baseURL.split(separator: ":").last.map(String.init) ?? ""
        let second = try StubdProcess.run(["serve", "--port", port])
        #expect(second.status == 1)
        #expect(second.stderr == "stubd: error: --port \(port): 127.0.0.1:\(port) is already in use; stop the other server or pick another port (--port 0 picks a free one)\n")
    }

    @Test func serveRefusesBrokenFixturesAndServesNothing() throws {
        let root = try StubdProcess.temporaryFolder(["a.json": "{ nope"])
        let result = try StubdProcess.run(["serve", root, "--port", "0"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("\(root)/a.json: invalid JSON at line 1, column 3: expected a quoted key"))
    }

    @Test func aMissingFixturesFolderIsNamed() throws {
        let result = try StubdProcess.run(["check", "/nonexistent/fixtures"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("/nonexistent/fixtures: no such file or folder; pass a fixtures folder or a .json file\n"))
    }

    @Test func badFlagsAreRejectedWithTheFlagName() throws {
        let result = try StubdProcess.run(["serve", "--port", "70000"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--port must be from 0 to 65535, got 70000"))
    }

    @Test func watchReloadsAGoodEditAndReportsABrokenOne() throws {
        let root = try StubdProcess.temporaryFolder(["api.json": #"{"request": {"method": "GET", "path": "/v"}, "response": {"text": "one"}}"#])
        let stubd = try ServingStubd([root, "--port", "0", "--watch", "--no-cors"])
        let fetch = { StubdProcess.curl([stubd.baseURL + "/v"]) }
        #expect(fetch() == "one")
        try Data(#"{"request": {"method": "GET", "path": "/v"}, "response": {"text": "two"}}"#.utf8)
            .write(to: URL(fileURLWithPath: root + "/api.json"))
        #expect(stubd.waitForStderr(containing: "reloaded 1 routes from \(root)"))
        #expect(fetch() == "two")
        try Data("{ broken".utf8).write(to: URL(fileURLWithPath: root + "/api.json"))
        #expect(stubd.waitForStderr(containing: "fixtures not reloaded"))
        #expect(fetch() == "two")
        let stopped = stubd.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("reloaded 1 routes from \(root)"))
        #expect(stopped.stderr.contains("\(root)/api.json: invalid JSON at line 1, column 3: expected a quoted key"))
        #expect(stopped.stderr.contains("fixtures not reloaded; the previous 1 routes keep serving"))
    }
}
