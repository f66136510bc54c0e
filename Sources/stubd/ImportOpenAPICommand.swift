import ArgumentParser
import Foundation
import OpenAPIImport
import StubdCLI

/// `stubd import openapi SPEC --out DIR`: an OpenAPI 3.0/3.1 spec's examples as fixtures.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Convert an OpenAPI 3.0 or 3.1 spec (YAML or JSON) into fixture files: one route per operation and response example.",
        discussion: """
            The first 2xx example answers a plain request; pick another response with the header \
            X-Stubd-Example: STATUS or STATUS/EXAMPLE-NAME (e.g. 404, or 200/empty).
            """
    )

    @Argument(help: "The spec: .yaml, .yml or .json.")
    var spec: String

    @Option(help: "Folder the fixture file is written to (created if missing).")
    var out: String

    func run() throws {
        let imported = OpenAPIImporter.importSpec(spec)
        let folder = (spec as NSString).deletingLastPathComponent
        try ImportOutput.write([imported], out: out, strict: false, sourceRoot: folder.isEmpty ? "." : folder, fallbackRoot: folder)
    }
}
