import Foundation
import Testing
import StubdTestTags

/// The README's curl tour is run as written (port changed): every command that shows output must
/// print each shown line, in order (`Date:` lines and `…` excepted), and the log lines it shows
/// must have the form stubd prints.
@Suite(.tags(.process))
struct ReadmeTourTests {
    /// `(command, shown output lines)` for each `$ ` command of the tour block that shows output.
    static func tourExamples() throws -> [(command: String, lines: [String])] {
        let readme = try String(contentsOf: StubdProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "## A curl tour of the demo API"))
        let block = readme[start.upperBound...].components(separatedBy: "```sh\n")[1].components(separatedBy: "```")[0]
        var examples: [(command: String, lines: [String])] = []
        var continuing = false
        for line in block.components(separatedBy: "\n") {
            if line.hasPrefix("$ ") {
                examples.append((String(line.dropFirst(2)), []))
                continuing = line.hasSuffix("\\")
            } else if continuing {
                // A command continued with `\` on the next line: not output.
                continuing = line.hasSuffix("\\")
            } else if !examples.isEmpty {
                examples[examples.count - 1].lines.append(line)
            }
        }
        return examples.map { example in
            (example.command, example.lines.filter { !$0.isEmpty && !$0.hasPrefix("Date:") && $0.trimmingCharacters(in: .whitespaces) != "…" })
        }.filter { !$0.lines.isEmpty }
    }

    @Test func everyTourCommandPrintsWhatTheREADMEShows() throws {
        let examples = try Self.tourExamples()
        #expect(examples.map(\.command.count).count == 2)
        #expect(examples.first?.lines.contains("Design for failure.") == true)
        #expect(examples.last?.lines.contains(#"  "error": "no stub matches GET /users/octocats","#) == true)
        let stubd = try ServingStubd(["--port", "0"])
        for example in examples {
            let command = example.command.components(separatedBy: " # ")[0]
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(stubd.port)")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", command + " --silent --max-time 5"]
            let pipe = Pipe()
            shell.standardOutput = pipe
            try shell.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .replacingOccurrences(of: "\r", with: "")
            shell.waitUntilExit()
            var remaining = output.components(separatedBy: "\n")[...]
            for line in example.lines {
                guard let index = remaining.firstIndex(of: line) else {
                    Issue.record("`\(command)` did not print the README's line \(line.debugDescription); it printed:\n\(output)")
                    break
                }
                remaining = remaining[(index + 1)...]
            }
        }
        let stopped = stubd.stop()
        let logged = stopped.stderr.components(separatedBy: "\n")
        #expect(logged.contains { $0.hasSuffix("info stubd: [request] GET /zen 200 zen " + ($0.split(separator: " ").last.map(String.init) ?? "")) })
        #expect(logged.contains { $0.contains(#"info stubd: [request] GET /users/octocats 404 MISS closest: user (path segment 2: expected "octocat", got "octocats") "#) })
    }
}
