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
            abstract: "Convert WireMock mappings, HAR captures or OpenAPI examples into fixture files.",
            subcommands: [ImportWireMockCommand.self, ImportHARCommand.self, ImportOpenAPICommand.self, ImportGraphQLCommand.self]
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

    @Flag(name: .customLong("global-response-templating"), help: "Every response is a template (WireMock's flag of the same name); otherwise only mappings with the response-template transformer.")
    var globalResponseTemplating = false

    @Option(name: .customLong("template-helpers"), help: "A JSON file declaring the suite's own Handlebars helpers as stubd templates, e.g. {\"currentYear\": \"{{now format='yyyy'}}\"}.")
    var templateHelpers: String?

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            printError("stubd: error: \(root) is not a folder; give the WireMock root (the folder holding mappings/)")
            throw ExitCode(1)
        }
        let helpers = try TemplateHelpersFile.load(templateHelpers)
        let files = WireMockImporter.importRoot(root, globalTemplating: globalResponseTemplating, helpers: helpers)
        guard ImportOutput.write(files, out: out, strict: strict, sourceRoot: root + "/mappings", fallbackRoot: root) else { throw ExitCode(1) }
    }
}
