import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import StubdTesting
import TargetModel
import Testing
import StubdTestTags

/// A stubd the test process starts for itself when none runs (issue 34): the built binary as a
/// child on port 0, shared by the process's tests, each in its own session — and a stubd started
/// with `--parent-pid` stops when that process ends, so a killed test run leaves none behind.
@Suite(.serialized, .tags(.process)) struct LauncherTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = root.appendingPathComponent(".build/debug/stubd").path

    @Test func aTestProcessStartsOneStubdAndSharesIt() async throws {
        let environment = ["STUBD_BINARY": Self.binary, "PATH": ""]
        #expect(StubdLauncher.binary(environment: environment) == Self.binary)
        #expect(StubdLauncher.binary(environment: ["PATH": ""], currentDirectory: Self.root.path, testBinaries: []) == Self.binary,
                "a checkout's own build is found from its folder")
        let first = try StubdLauncher.sharedBaseURL(environment: environment)
        let second = try StubdLauncher.sharedBaseURL(environment: environment)
        #expect(first == second && first.host == "127.0.0.1" && first.port != 8080, "\(first) \(second)")
        // Two sessions on it, each with its own answer for one target.
        let a = try await Stubd.session(baseURL: first), b = try await Stubd.session(baseURL: first)
        try await a.stub(UserAPI.profile, .response(200, "a"))
        try await b.stub(UserAPI.profile, .response(200, "b"))
        for (session, expected) in [(a, "a"), (b, "b")] {
            let urlSession = session.makeURLSession()
            let (data, _) = try await urlSession.data(for: try session.request(for: UserAPI.profile))
            urlSession.finishTasksAndInvalidate()
            #expect(String(decoding: data, as: UTF8.self) == expected)
            try await session.end()
        }
        #expect(StubdLauncher.startedBaseURL == first)
        #expect(try await Stubd.serverURL(environment: environment) == first, "once started, the process's tests keep to it")
        // STUBD_BASE_URL always wins.
        #expect(try await Stubd.serverURL(environment: ["STUBD_BASE_URL": "http://127.0.0.1:9/"]) == URL(string: "http://127.0.0.1:9/"))
        StubdLauncher.stop()
        #expect(StubdLauncher.startedBaseURL == nil)
        await #expect(throws: (any Error).self) { try await StubdAdminClient(baseURL: first, timeout: 1).health() }
    }

    /// A package that depends on stubd has no `stubd` on `PATH`: the kit finds the binary beside
    /// the test binary (a test target depending on the `stubd` product) or in its own checkout's
    /// build, and when there is none and it may not build one, it fails at once naming every
    /// place it looked and each override.
    @Test func theKitFindsStubdWhereAPackageBuildsItOrSaysWhereItLooked() throws {
        #expect(StubdLauncher.kitCheckout == Self.root.path, "the kit knows its own checkout")
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-nowhere-\(UUID().uuidString)").path
        #expect(StubdLauncher.binary(environment: ["PATH": ""], currentDirectory: nowhere, testBinaries: [], checkout: Self.root.path) == Self.binary,
                "the stubd package's own build")
        let beside = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-beside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: beside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: beside) }
        try FileManager.default.copyItem(atPath: Self.binary, toPath: beside.appendingPathComponent("stubd").path)
        #expect(StubdLauncher.binary(environment: ["PATH": ""], currentDirectory: nowhere, testBinaries: [beside.appendingPathComponent("MyShopPackageTests.xctest").path],
                                     checkout: Self.root.path) == beside.appendingPathComponent("stubd").path, "beside the test binary comes first")
        #expect(StubdLauncher.binary(environment: ["PATH": ""], currentDirectory: nowhere, testBinaries: [], checkout: nowhere) == nil)
        let looked = StubdLauncher.places(environment: ["PATH": "/usr/bin"], currentDirectory: nowhere, testBinaries: [], checkout: nowhere)
        do {
            _ = try StubdLauncher.buildInCheckout(nowhere, environment: ["STUBD_BUILD": "no"], looked: looked)
            Issue.record("no binary and no build, yet no failure")
        } catch {
            let said = "\(error)"
            #expect(said.contains("/usr/bin/stubd (PATH)") && said.contains("\(nowhere)/.build/debug/stubd (the stubd package's own build)")
                    && said.contains("STUBD_BINARY") && said.contains("STUBD_BASE_URL"), "\(said)")
        }
    }

    @Test func aStubdWithAParentStopsWhenItEnds() throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sleep")
        parent.arguments = ["1"]
        try parent.run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-parent-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: Self.binary)
        child.arguments = ["serve", folder, "--port", "0", "--quiet", "--parent-pid", String(parent.processIdentifier)]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        // Woken by the child's exit itself, not by polling it (5 s at most).
        let ended = DispatchSemaphore(value: 0)
        child.terminationHandler = { _ in ended.signal() }
        try child.run()
        parent.waitUntilExit()
        let started = Date()
        let stopped = ended.wait(timeout: .now() + 5) == .success
        #expect(stopped && !child.isRunning, "stubd still ran \(Date().timeIntervalSince(started)) s after its parent's end")
        if child.isRunning { child.terminate() } else { #expect(child.terminationStatus == 0) }
    }
}
