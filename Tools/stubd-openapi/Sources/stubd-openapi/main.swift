import Foundation
import Importers
import OpenAPIImport

// stubd-openapi SPEC --out DIR: what `stubd import openapi` runs. Kept to one job and no flags of
// its own, so the two commands cannot drift: stubd parses and documents the command line.
let usage = "usage: stubd-openapi SPEC --out DIR   (normally run as: stubd import openapi SPEC --out DIR)"
var arguments = Array(CommandLine.arguments.dropFirst())
var out: String?
if let index = arguments.firstIndex(of: "--out"), index + 1 < arguments.count {
    out = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard let out, arguments.count == 1, !arguments[0].hasPrefix("-") else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
}
let spec = arguments[0]
let folder = (spec as NSString).deletingLastPathComponent
let written = ImportOutput.write([OpenAPIImporter.importSpec(spec)], out: out, strict: false,
                                 sourceRoot: folder.isEmpty ? "." : folder, fallbackRoot: folder)
exit(written ? 0 : 1)
