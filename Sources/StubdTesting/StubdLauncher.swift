public import Foundation
import Synchronization

/// A stubd this test process starts for itself, when none answers where the tests look and the
/// host can run one (macOS and Linux test hosts; never the iOS Simulator, whose tests use the stubd
/// the scheme started): `stubd serve` as a child process on port 0 of 127.0.0.1, shared by every
/// test of the process (each still in its own session), stopped when the process exits.
///
/// Which binary (`places`, in order): `STUBD_BINARY`; `stubd` on `PATH`; beside the running
/// test binary (a test target that depends on the `stubd` product has it built there); under the
/// current folder's `.build/debug` or `.build/release`; under the kit's own checkout's (the stubd
/// package a SwiftPM app depends on, by path or URL). None of those: the kit builds the `stubd`
/// product in its checkout once (`swift build --product stubd`, minutes the first time on a
/// machine; `STUBD_BUILD=no` turns it off) — so a package that depends on stubd needs nothing set
/// up by hand. Which fixtures: the folder `STUBD_FIXTURES` names, else none (tests stub what they
/// need). `STUBD_START=no` turns it off.
public enum StubdLauncher {
    #if os(macOS) || os(Linux)
    private static let started = Mutex<Started?>(nil)
    private static let starting = Mutex(false)

    private final class Started: Sendable {
        let process: Process
        let baseURL: URL
        let folder: String
        init(process: Process, baseURL: URL, folder: String) {
            self.process = process
            self.baseURL = baseURL
            self.folder = folder
        }
    }
    #endif

    /// Why a stubd could not be started.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, and what to do.
        public let description: String
    }

    /// The stubd package this kit was compiled from (its checkout: a path dependency's folder, or
    /// `.build/checkouts/stubd` for a URL dependency): three folders above this file.
    public static let kitCheckout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every place a binary is looked for, in order, with why: what a failure lists.
    public static func places(environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath,
                              testBinaries: [String] = runningTestBinaries, checkout: String = kitCheckout) -> [(path: String, why: String)] {
        var places: [(path: String, why: String)] = []
        if let given = environment["STUBD_BINARY"], !given.isEmpty { places.append((given, "STUBD_BINARY")) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") { places.append(("\(folder)/stubd", "PATH")) }
        for binary in testBinaries {
            places.append((URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("stubd").path, "beside the test binary"))
        }
        for build in [".build/debug/stubd", ".build/release/stubd"] { places.append((currentDirectory + "/" + build, "the current folder's build")) }
        for build in [".build/debug/stubd", ".build/release/stubd"] { places.append((checkout + "/" + build, "the stubd package's own build")) }
        return places
    }

    /// The test binary and test bundles of this process (SwiftPM builds a test target's
    /// executable dependencies beside them).
    public static var runningTestBinaries: [String] {
        let bundles = Bundle.allBundles.map(\.bundlePath).filter { $0.hasSuffix(".xctest") }
        return Array(CommandLine.arguments.prefix(1)) + bundles
    }

    /// The binary that would be started (nil: none found, or the platform cannot start one);
    /// `STUBD_BINARY` is taken as given.
    public static func binary(environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath,
                              testBinaries: [String] = runningTestBinaries, checkout: String = kitCheckout) -> String? {
        #if os(macOS) || os(Linux)
        if let given = environment["STUBD_BINARY"], !given.isEmpty { return given }
        return places(environment: environment, currentDirectory: currentDirectory, testBinaries: testBinaries, checkout: checkout)
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
        #else
        return nil
        #endif
    }

    #if os(macOS) || os(Linux)
    /// Builds the `stubd` product in `checkout` (once; its output in a log file) and returns the
    /// binary, or throws naming what failed and every place looked at.
    static func buildInCheckout(_ checkout: String, environment: [String: String], looked: [(path: String, why: String)]) throws -> String {
        let list = looked.map { "  \($0.path) (\($0.why))" }.joined(separator: "\n")
        let overrides = "set STUBD_BINARY to a stubd binary, put stubd on PATH, or start stubd yourself and set STUBD_BASE_URL"
        guard (environment["STUBD_BUILD"] ?? "").lowercased() != "no", FileManager.default.fileExists(atPath: checkout + "/Package.swift") else {
            throw Failure(description: "no stubd binary to start; looked at:\n\(list)\n\(overrides)")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-kit-build-\(UUID().uuidString).log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        FileHandle.standardError.write(Data("StubdTesting: no stubd binary found; building the stubd product in \(checkout) once (swift build --product stubd, log: \(log)); STUBD_BUILD=no skips this, STUBD_BINARY names a binary\n".utf8))
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swift", "build", "--package-path", checkout, "--product", "stubd"]
        build.standardOutput = FileHandle(forWritingAtPath: log)
        build.standardError = build.standardOutput
        do {
            try build.run()
        } catch {
            throw Failure(description: "no stubd binary, and `swift build` could not run (\(error.localizedDescription)); looked at:\n\(list)\n\(overrides)")
        }
        build.waitUntilExit()
        let built = checkout + "/.build/debug/stubd"
        guard build.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: built) else {
            throw Failure(description: "no stubd binary, and building it in \(checkout) failed (exit \(build.terminationStatus); see \(log)); looked at:\n\(list)\n\(overrides)")
        }
        return built
    }
    #endif

    /// The base URL of the stubd this process has started, if it has.
    public static var startedBaseURL: URL? {
        #if os(macOS) || os(Linux)
        return started.withLock { $0?.baseURL }
        #else
        return nil
        #endif
    }

    /// The base URL of the stubd this process started, starting it on first use.
    public static func sharedBaseURL(environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 15) throws -> URL {
        #if os(macOS) || os(Linux)
        if let started = started.withLock({ $0 }) { return started.baseURL }
        // One start at a time; the others wait for it and share it.
        while !starting.withLock({ if $0 { return false }; $0 = true; return true }) {
            Thread.sleep(forTimeInterval: 0.05)
            if let started = started.withLock({ $0 }) { return started.baseURL }
        }
        defer { starting.withLock { $0 = false } }
        if let started = started.withLock({ $0 }) { return started.baseURL }
        let binary = try binary(environment: environment)
            ?? buildInCheckout(kitCheckout, environment: environment, looked: places(environment: environment))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-kit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work + "/fixtures", withIntermediateDirectories: true)
        let fixtures = environment["STUBD_FIXTURES"].flatMap { $0.isEmpty ? nil : $0 } ?? work + "/fixtures"
        let readyFile = work + "/ready"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve", fixtures, "--host", "127.0.0.1", "--port", "0", "--quiet", "--ready-file", readyFile,
                             "--parent-pid", String(ProcessInfo.processInfo.processIdentifier)]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(binary): \(error.localizedDescription); set STUBD_BINARY to a stubd binary")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: readyFile, encoding: .utf8), let line = text.split(separator: "\n").first,
               let url = URL(string: String(line)) {
                started.withLock { $0 = Started(process: process, baseURL: url, folder: work) }
                atexit { StubdLauncher.stop() }
                return url
            }
            if !process.isRunning {
                let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw Failure(description: "\(binary) serve \(fixtures) exited (\(process.terminationStatus)): \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw Failure(description: "\(binary) did not listen within \(timeout) s")
        #else
        throw Failure(description: "this platform cannot start stubd; start it on the host (the scheme's pre-action, docs/UI-TESTS.md) and set STUBD_BASE_URL")
        #endif
    }

    /// Stops the stubd this process started (at exit, or when a test wants it gone).
    public static func stop() {
        #if os(macOS) || os(Linux)
        guard let started = started.withLock({ current -> Started? in
            defer { current = nil }
            return current
        }) else { return }
        if started.process.isRunning {
            started.process.terminate()
            started.process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: started.folder)
        #endif
    }
}
