import ArgumentParser
import Foundation
import Importers
import Recording
import StubdEngine
import FixtureFiles

/// `stubd import har FILE --out DIR`: a HAR capture (Chrome/Firefox DevTools, Charles, Proxyman)
/// becomes fixtures exactly as a recording would write them: one per distinct request, bodies
/// decoded and stored readably, secrets redacted, files written whole.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Convert a HAR capture into fixture files, one per distinct request, secrets redacted (as stubd record writes them)."
    )

    @Argument(help: "The .har file.")
    var file: String

    @Option(help: "Folder the fixture files are written to (created if missing).")
    var out: String

    @Option(help: "Keep only entries whose URL starts with this prefix (repeatable), e.g. https://api.example.com/v1")
    var include: [String] = []

    @OptionGroup var recording: RecordingArguments

    func run() throws {
        let capture: HARReader.Result
        do {
            capture = try HARReader.read(file, include: include)
        } catch {
            printError(error.description)
            printError("stubd: \(file) not imported; nothing was written")
            throw ExitCode(1)
        }
        let recorder: Recorder
        do {
            var options = try recording.options(out: out)
            options.knownSecrets = capture.cookieValues
            recorder = try Recorder(upstream: "har:\((file as NSString).lastPathComponent)", options: options)
        } catch let error as RecordingError {
            printError("stubd: error: --out \(error.description)")
            throw ExitCode(1)
        }
        for warning in recorder.warnings { printError("warning: \(warning)") }
        for exchange in capture.exchanges {
            let request = CapturedRequest(method: exchange.method, target: exchange.target, headers: exchange.requestHeaders, body: exchange.requestBody)
            recorder.record(request, status: exchange.status, headers: exchange.responseHeaders, body: exchange.responseBody)
        }
        let summary = recorder.finish()
        for line in summary.lines { printOut("stubd: \(line)") }
        if !capture.skipped.isEmpty {
            printOut("stubd: \(capture.skipped.count) entr\(capture.skipped.count == 1 ? "y" : "ies") left out:")
            for line in capture.skipped { printOut("  \(line)") }
        }
    }
}
