import Foundation
import Testing
import StubdTestTags

/// `--ready-file` and `--pid-file`, and the start/stop scripts docs/UI-TESTS.md's recipes call.
@Suite(.tags(.process)) struct StartupRecipeTests {
    @Test func theReadyFileNamesTheURLOnceItAnswersAndBothFilesGoAtExit() throws {
        let folder = try StubdProcess.temporaryFolder(["ready": "http://127.0.0.1:1 (a stale file from an earlier run)\n"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The files are written before the banner, so once the banner is read they are there.
        let stubd = try ServingStubd(["fixtures", "--port", "0", "--ready-file", folder + "/ready", "--pid-file", folder + "/pid"])
        let ready = try String(contentsOfFile: folder + "/ready", encoding: .utf8)
        #expect(ready == stubd.baseURL + "\nhttp2 on\n", "the ready file holds this run's URL and whether HTTP/2 is on: \(ready)")
        #expect(StubdProcess.curl([stubd.baseURL + "/zen"]) == "Design for failure.")
        let pid = try String(contentsOfFile: folder + "/pid", encoding: .utf8)
        #expect(pid == "\(stubd.process.processIdentifier)\n")
        _ = stubd.stop()
        #expect(!FileManager.default.fileExists(atPath: folder + "/ready") && !FileManager.default.fileExists(atPath: folder + "/pid"))
    }

    @Test func anUnwritableReadyFileStopsStubdNamingTheFlag() throws {
        let result = try StubdProcess.run(["serve", "fixtures", "--port", "0", "--ready-file", "/nonexistent-folder/ready"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("stubd: error: --ready-file /nonexistent-folder/ready cannot be written"), "\(result.stderr)")
    }

    /// What a scheme pre-action or CI step runs: start, wait, print the URL; later stop.
    @Test func theStartAndStopScriptsServeAndStop() throws {
        let state = try StubdProcess.temporaryFolder([:])
        defer { try? FileManager.default.removeItem(atPath: state) }
        let scripts = StubdProcess.repositoryRoot.appendingPathComponent("Examples/UITests")
        let environment = "STUBD=\(StubdProcess.executable.path) STUBD_STATE=\(state) STUBD_WAIT=20"
        let start = try StubdProcess.run(["-c", "\(environment) \(scripts.path)/start-stubd.sh fixtures --port 0"],
                                         timeout: 30, program: URL(fileURLWithPath: "/bin/bash"))
        #expect(start.status == 0, "\(start.stderr)")
        let url = start.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "STUBD_BASE_URL=", with: "")
        #expect(url.hasPrefix("http://127.0.0.1:"), "\(start.stdout)")
        #expect(StubdProcess.curl([url + "/zen"]) == "Design for failure.")
        let stop = try StubdProcess.run(["-c", "\(environment) \(scripts.path)/stop-stubd.sh"], timeout: 20, program: URL(fileURLWithPath: "/bin/bash"))
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(StubdProcess.curl([url + "/zen"]) == "", "stopped")
        #expect(!FileManager.default.fileExists(atPath: state + "/pid"))

        let failing = try StubdProcess.run(["-c", "\(environment) \(scripts.path)/start-stubd.sh no-such-folder --port 0"],
                                           timeout: 30, program: URL(fileURLWithPath: "/bin/bash"))
        #expect(failing.status == 1)
        #expect(failing.stderr.contains("stubd exited before it was ready"), "\(failing.stderr)")
    }
}
