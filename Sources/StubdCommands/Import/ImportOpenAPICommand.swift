import ArgumentParser
import Foundation

/// `stubd import openapi SPEC --out DIR`: an OpenAPI 3.0/3.1 spec's examples as fixtures.
///
/// The converter is a separate program, `stubd-openapi` (Tools/stubd-openapi): OpenAPIKit and Yams
/// more than doubled the build every `make run`, CI run and targets package paid, for a command
/// most teams run once. This command finds that program and runs it; a build without it says the
/// one command that adds it.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Convert an OpenAPI 3.0 or 3.1 spec (YAML or JSON) into fixture files: one route per operation and response example.",
        discussion: """
            The first 2xx example answers a plain request; pick another response with the header \
            X-Stubd-Example: STATUS or STATUS/EXAMPLE-NAME (e.g. 404, or 200/empty). Runs the \
            stubd-openapi program (in every make dist, make install and Homebrew build; from a \
            source checkout: make openapi).
            """
    )

    @Argument(help: "The spec: .yaml, .yml or .json.")
    var spec: String

    @Option(help: "Folder the fixture file is written to (created if missing).")
    var out: String

    func run() throws {
        let program: String
        switch OpenAPIProgram.locate() {
        case .success(let found): program = found
        case .failure(let problem):
            printError("stubd: error: \(problem)")
            throw ExitCode(1)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [spec, "--out", out]
        do {
            try process.run()
        } catch {
            printError("stubd: error: \(program) cannot be run (\(error.localizedDescription)); rebuild it with `make openapi` or set STUBD_OPENAPI to a working stubd-openapi")
            throw ExitCode(1)
        }
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw ExitCode(process.terminationStatus) }
    }
}
