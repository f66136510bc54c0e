import Foundation
import StubdSystem

/// WireMock 2.35.1 itself (the standalone jar) on a free loopback port, for comparing answers.
/// Ready once it prints that it has started (read from its output, no polling); its output is
/// drained for as long as it runs, so a full pipe never stalls it.
final class RealWireMock: @unchecked Sendable {
    struct NotStarted: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    let baseURL: String

    init(jar: String, root: String, flags: [String] = []) throws {
        let address = try System.resolve(host: "127.0.0.1", port: 0)[0]
        let probe = try System.streamSocket(for: address)
        try System.bind(probe, to: address)
        let port = try System.boundPort(probe)
        System.close(probe)
        baseURL = "http://127.0.0.1:\(port)"
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["java", "-jar", jar, "--port", "\(port)", "--bind-address", "127.0.0.1", "--root-dir", root, "--disable-banner"] + flags
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let started = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var seen = ""
            var signalled = false
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                guard !signalled else { continue }
                seen += String(decoding: chunk, as: UTF8.self)
                if seen.contains("The WireMock server is started") {
                    signalled = true
                    started.signal()
                }
            }
            if !signalled { started.signal() }  // it exited: the check below reports it
        }
        guard started.wait(timeout: .now() + 90) == .success, process.isRunning else {
            stop()
            throw NotStarted(description: "WireMock (\(jar)) did not start on port \(port)")
        }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
