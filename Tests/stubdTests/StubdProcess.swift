import Foundation
import StubdTestSupport

/// Runs the built `stubd` executable (next to this test binary) as a user would.
struct StubdProcess {
    static let executable: URL = {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("stubd")
        #else
        // macOS runs the tests from an .xctest bundle in the build folder, beside the products.
        Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent("stubd") }
            ?? repositoryRoot.appendingPathComponent(".build/debug/stubd")
        #endif
    }()

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Finished {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs to completion (killed after `timeout` seconds) and captures the output.
    static func run(_ arguments: [String], timeout: Double = 20, program: URL = executable,
                    directory: URL = repositoryRoot) throws -> Finished {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Finished(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                        stderr: String(decoding: errData, as: UTF8.self))
    }

    /// What curl prints for `arguments` (silent, at most 5 s); empty when curl cannot run.
    static func curl(_ arguments: [String]) -> String {
        (try? Curl.run(arguments, maxTime: 5))?.stdout ?? ""
    }

    /// A temporary folder holding the given files.
    static func temporaryFolder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-cli-\(UUID().uuidString)")
        for (path, content) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root.path
    }
}

/// A `stubd serve` running in the background, stopped with a signal.
final class ServingStubd: @unchecked Sendable {
    let process = Process()
    private let out = Pipe()
    private let err = Pipe()
    /// The "stubd: serving …" line.
    let banner: String
    /// Standard error as read so far, with a condition to wait on new output.
    private let stderrText = NSCondition()
    private var stderrSoFar = Data()
    private var stderrClosed = false

    convenience init(_ arguments: [String]) throws {
        try self.init(executable: StubdProcess.executable, arguments: ["serve"] + arguments)
    }

    /// Runs `stubd serve …` through `/bin/sh -c` (to set limits with `ulimit` first).
    convenience init(shell command: String) throws {
        try self.init(executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command])
    }

    init(executable: URL, arguments: [String], directory: URL = StubdProcess.repositoryRoot) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line = Data()
        let handle = out.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        banner = String(decoding: line, as: UTF8.self)
        let errors = err.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = errors.availableData
                stderrText.lock()
                if chunk.isEmpty { stderrClosed = true } else { stderrSoFar.append(chunk) }
                stderrText.broadcast()
                stderrText.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// The next line on standard output after the banner (blocks until it is written).
    func nextLine() -> String {
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Waits (at most `timeout` seconds) until standard error contains `text`; false if it never did.
    func waitForStderr(containing text: String, timeout: Double = 10) -> Bool {
        waitForStderr(timeout: timeout) { $0.contains(text) }
    }

    /// Waits (at most `timeout` seconds) until standard error so far satisfies `done`.
    func waitForStderr(timeout: Double = 10, until done: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        stderrText.lock()
        defer { stderrText.unlock() }
        while !done(String(decoding: stderrSoFar, as: UTF8.self)) {
            if stderrClosed || !stderrText.wait(until: deadline) { return false }
        }
        return true
    }

    /// The URL from the banner (`http://127.0.0.1:PORT`).
    var baseURL: String { banner.components(separatedBy: " on ").last ?? "" }

    /// The port from the banner.
    var port: Int { Int(baseURL.split(separator: ":").last ?? "") ?? 0 }

    /// Sends `signal`, waits for exit, and returns status, remaining stdout and all stderr.
    func stop(signal: Int32 = SIGTERM) -> (status: Int32, stdout: String, stderr: String) {
        kill(process.processIdentifier, signal)
        let process = self.process
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 15, execute: killer)
        defer { killer.cancel() }
        let rest = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        stderrText.lock()
        while !stderrClosed { stderrText.wait() }
        let errors = stderrSoFar
        stderrText.unlock()
        return (process.terminationStatus, String(decoding: rest, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
