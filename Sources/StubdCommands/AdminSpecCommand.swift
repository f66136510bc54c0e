import AdminContract
import ArgumentParser
import Foundation
import StubModel

/// `stubd admin-spec`: the admin API as an OpenAPI 3.1 document, from the declarations the
/// server serves — committed as docs/admin-api.openapi.json, and what a client in another
/// language (or a code generator) is written against.
struct AdminSpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-spec",
        abstract: "Print the admin API (/__stubd/) as an OpenAPI 3.1 document.",
        discussion: """
            The document stubd's own admin API is checked against (docs/admin-api.openapi.json \
            is this command's output).

              $ stubd admin-spec --output admin-api.openapi.json
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the document to this file (atomically) instead of printing it.", valueName: "FILE"))
    var output: String?

    func run() throws {
        let text = JSONWriter.write(AdminOpenAPI.document(version: StubdVersion.current), pretty: true) + "\n"
        guard let output else {
            print(text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ValidationError("--output \(output): cannot write it (\(error.localizedDescription)); check the folder exists and is writable")
        }
    }
}
