import ArgumentParser
import FixtureFiles
import Foundation
import Importers
import StubModel

/// `stubd import wiremock|har|openapi`: bring stubs written for other tools in as ordinary
/// fixture files (`stubd check`, `routes` and `serve --watch` work on them).
struct ImportCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "import",
            abstract: "Convert WireMock mappings or HAR captures (and, in the stubd command, OpenAPI examples) into fixture files.",
            subcommands: [ImportWireMockCommand.self, ImportHARCommand.self] + SwiftTargets.importCommands
        )
    }
}

/// `stubd import wiremock ROOT --out DIR [--strict]`.
struct ImportWireMockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wiremock",
        abstract: "Convert a WireMock root (mappings/ and __files/) into fixture files, one per mapping file.",
        discussion: "Fields stubd has no equivalent for are listed as `file: field: not supported (…)`; --strict makes them errors."
    )

    @Argument(help: "The WireMock root: the folder holding mappings/ and __files/.")
    var root: String

    @Option(help: "Folder the fixture files are written to (created if missing).")
    var out: String

    @Flag(help: "Treat every unsupported field as an error: write nothing for that file.")
    var strict = false

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("stubd: error: \(root) is not a folder; give the WireMock root (the folder holding mappings/)")
            throw ExitCode(1)
        }
        let files = WireMockImporter.importRoot(root)
        try ImportOutput.write(files, out: out, strict: strict, sourceRoot: root + "/mappings", fallbackRoot: root)
    }
}

/// Writes imported files as fixture files and prints the report; exit 1 if any file was refused.
package enum ImportOutput {
    /// Writes `files` under `out`, named after each source file relative to `sourceRoot`.
    package static func write(_ files: [ImportedFile], out: String, strict: Bool, sourceRoot: String, fallbackRoot: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            printError("stubd: error: --out \(out) cannot be created (\((error as NSError).localizedDescription)); give a folder you can write to")
            throw ExitCode(1)
        }
        var written = 0, routes = 0, refused = 0
        for file in files {
            for line in file.unsupported { printError(line) }
            if !file.errors.isEmpty || (strict && !file.unsupported.isEmpty) {
                for error in file.errors { printError(error.description) }
                if strict && file.errors.isEmpty { printError("\(file.file): not written (--strict and \(file.unsupported.count) unsupported field(s))") }
                refused += 1
                continue
            }
            guard !file.fixtures.isEmpty else { continue }
            let base = file.file.hasPrefix(sourceRoot + "/") ? String(file.file.dropFirst(sourceRoot.count + 1))
                : file.file.hasPrefix(fallbackRoot + "/") ? String(file.file.dropFirst(fallbackRoot.count + 1)) : (file.file as NSString).lastPathComponent
            let name = out + "/" + (base as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "-") + ".json"
            do {
                try AtomicFile.write(Array(FixtureWriter.text(for: file.fixtures).utf8), to: name)
            } catch {
                printError("stubd: error: \(name) cannot be written (\(error))")
                throw ExitCode(1)
            }
            written += 1
            routes += file.fixtures.count
        }
        printOut("stubd: imported \(routes) route(s) into \(written) file(s) in \(out)"
                 + (refused > 0 ? "; \(refused) file(s) refused, nothing written for them" : ""))
        if refused > 0 { throw ExitCode(1) }
    }
}
