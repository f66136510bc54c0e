import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import StubdTestTags

/// `stubd verify` against a stubd standing in for a real API that drifted: every kind reported by
/// path, the exit status following `--fail-on`, no live value in the report.
@Suite(.tags(.process)) struct VerifyCommandTests {
    @Test func driftIsReportedEachWayWithoutLiveValues() throws {
        let fixtures = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [
              {"name": "user", "request": {"method": "GET", "path": "/users/octocat"}, "response": {"json": {"login": "octocat", "id": 1, "plan": {"name": "pro"}, "bio": "x"}}},
              {"name": "gone", "request": {"method": "GET", "path": "/gone"}, "response": {"json": {"ok": true}}},
              {"name": "same", "request": {"method": "GET", "path": "/same", "query": {"q": "a b"}}, "response": {"json": {"ok": true}}},
              {"name": "write", "request": {"method": "POST", "path": "/orders"}, "response": {"status": 201}}
            ]}
            """#])
        let drifted = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [
              {"request": {"method": "GET", "path": "/users/octocat"}, "response": {"json": {"login": "octocat", "id": "1", "bio": null, "token": "SECRET-LIVE-1"}}},
              {"request": {"method": "GET", "path": "/gone"}, "response": {"status": 404, "json": {"ok": false}}},
              {"request": {"method": "GET", "path": "/same", "query": {"q": "a b"}}, "response": {"json": {"ok": false}}}
            ]}
            """#])
        let realAPI = try ServingStubd([drifted, "--port", "0"])
        defer { _ = realAPI.stop() }
        let report = try StubdProcess.run(["verify", fixtures, "--upstream", realAPI.baseURL])
        #expect(report.status == 1, "\(report.stdout) \(report.stderr)")
        for line in ["$.id: retyped, number → string", "$.plan: removed (was object)", "$.bio: now null (was string)", "$.token: added (string)",
                     "status: 200 → 404", "verify: 3 route(s) checked", "1 skipped"] {
            #expect(report.stdout.contains(line), "missing \(line) in:\n\(report.stdout)")
        }
        #expect(!report.stdout.contains("SECRET-LIVE-1") && !report.stdout.contains("same ("), "\(report.stdout)")
        // Only status changes fail the run when asked so... and one did.
        #expect(try StubdProcess.run(["verify", fixtures, "--upstream", realAPI.baseURL, "--fail-on", "type"]).status == 0)
        #expect(try StubdProcess.run(["verify", fixtures, "--upstream", "ftp://x"]).status == 64)

        // The same findings as JSON and JUnit XML for CI (issue 34), values still left out.
        let json = fixtures + "/out/verify.json", junit = fixtures + "/out/verify.xml"
        try FileManager.default.createDirectory(atPath: fixtures + "/out", withIntermediateDirectories: true)
        _ = try StubdProcess.run(["verify", fixtures + "/api.json", "--upstream", realAPI.baseURL, "--json", json, "--junit", junit])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect(document["checked"] as? Int == 3 && document["drifted"] as? Int == 2 && document["skipped"] as? Int == 1, "\(document)")
        let routes = try #require(document["routes"] as? [[String: Any]])
        let user = try #require(routes.first { $0["name"] as? String == "user" })
        #expect((user["drift"] as? [String])?.contains("$.id: retyped, number → string") == true, "\(user)")
        #expect(routes.first { $0["name"] as? String == "write" }?["skipped"] as? Bool == true)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="stubd verify" tests="4" failures="2" skipped="1">"#), "\(xml)")
        #expect(xml.contains("<failure message=\"drifted from the fixture: 4 change(s)\">") && xml.contains("$.plan: removed (was object)"), "\(xml)")
        #expect(xml.contains(#"name="same GET /same"/>"#), "a route without drift passes: \(xml)")
        let jsonText = String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self)
        #expect(!xml.contains("SECRET-LIVE-1") && !jsonText.contains("SECRET-LIVE-1"))
        // JUnit XML parses (xmllint when present is not needed: Foundation's parser reads it).
        #expect(XMLParser(data: Data(xml.utf8)).parse(), "well-formed XML")
    }

    /// An https API: verified against the CA given (`--upstream-ca`), refused with the reason
    /// without it — the command's own libevent/OpenSSL client, no URLSession in the binary.
    @Test func anHTTPSUpstreamIsTrustedThroughTheCAGiven() throws {
        let fixtures = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [{"name": "zen", "request": {"method": "GET", "path": "/zen"}, "response": {"text": "Design for failure."}}]}
            """#])
        let folder = HTTPSCommandTests.caFolder()
        let realAPI = try ServingStubd([fixtures, "--https-port", "0", "--ca-dir", folder, "--quiet"])
        defer { _ = realAPI.stop() }
        #expect(realAPI.baseURL.hasPrefix("https://127.0.0.1:"), "\(realAPI.banner)")
        let trusted = try StubdProcess.run(["verify", fixtures, "--upstream", realAPI.baseURL, "--upstream-ca", folder + "/stubd-ca.pem"])
        #expect(trusted.status == 0 && trusted.stdout.contains("verify: 1 route(s) checked against \(realAPI.baseURL), 0 drifted"),
                "\(trusted.stdout) \(trusted.stderr)")
        let untrusted = try StubdProcess.run(["verify", fixtures, "--upstream", realAPI.baseURL])
        #expect(untrusted.status == 1 && untrusted.stdout.contains("no answer: TLS: the upstream's certificate was refused"), "\(untrusted.stdout)")
    }

    /// `stubd ready`: 0 once the server answers its ready endpoint, 1 naming why when nothing
    /// listens (after --wait), 64 for a URL that is not http(s).
    @Test func readyAnswersForARunningStubdAndExplainsAMissingOne() throws {
        let stubd = try ServingStubd(["--port", "0", "--quiet"])
        let up = try StubdProcess.run(["ready", "--url", stubd.baseURL])
        #expect(up.status == 0 && up.stdout == "stubd: ready at \(stubd.baseURL)\n", "\(up.stdout) \(up.stderr)")
        let base = stubd.baseURL
        _ = stubd.stop()
        let down = try StubdProcess.run(["ready", "--url", base, "--wait", "0.3"])
        #expect(down.status == 1 && down.stderr.hasPrefix("stubd: not ready at \(base): "), "\(down.stderr)")
        #expect(try StubdProcess.run(["ready", "--url", "ftp://127.0.0.1"]).status == 64)
    }
}
