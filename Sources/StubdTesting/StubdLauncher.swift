public import Foundation
import Synchronization

/// A stubd this test process starts for itself, when none answers where the tests look and the
/// host can run one (macOS and Linux test hosts; never the iOS Simulator, whose tests use the stubd
/// the scheme started): `stubd serve` as a child process on port 0 of 127.0.0.1, shared by every
/// test of the process (each still in its own session), stopped when the process exits.
///
/// Which binary: `STUBD_BINARY`, else `stubd` on `PATH`, else `.build/debug/stubd` or
/// `.build/release/stubd` under the current folder (a stubd checkout's own tests). Which fixtures:
/// the folder `STUBD_FIXTURES` names, else none (tests stub what they need). `STUBD_START=no`
/// turns it off.
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

    /// The binary that would be started (nil: none found, or the platform cannot start one).
    public static func binary(environment: [String: String] = ProcessInfo.processInfo.environment,
                              currentDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        #if os(macOS) || os(Linux)
        if let given = environment["STUBD_BINARY"], !given.isEmpty { return given }
        let files = FileManager.default
        for folder in (environment["PATH"] ?? "").split(separator: ":") where files.isExecutableFile(atPath: "\(folder)/stubd") {
            return "\(folder)/stubd"
        }
        for build in [".build/debug/stubd", ".build/release/stubd"] where files.isExecutableFile(atPath: currentDirectory + "/" + build) {
            return currentDirectory + "/" + build
        }
        #endif
        return nil
    }

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
        guard let binary = binary(environment: environment) else {
            throw Failure(description: "no stubd binary to start: set STUBD_BINARY to one (or put stubd on PATH), or start stubd yourself and set STUBD_BASE_URL")
        }
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
