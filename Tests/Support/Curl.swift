package import Foundation

/// Runs the real curl binary and captures what it printed and its exit status.
package struct CurlResult {
    package let status: Int32
    package let stdout: String
    package let stderr: String
    /// What curl printed, byte for byte (bodies that are not text).
    package var data = Data()
}

package enum Curl {
    /// Runs `curl` with `arguments` (always bounded by `--max-time`).
    package static func run(_ arguments: [String], maxTime: Double = 10) throws -> CurlResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", String(maxTime)] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CurlResult(status: process.terminationStatus,
                          stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData, as: UTF8.self), data: outData)
    }
}
