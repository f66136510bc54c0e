import ArgumentParser
import FixtureFiles
import Foundation
import StubModel
import StubdSystem

/// `stubd export`: a targets package's Swift targets as fixture files, so the plain `stubd` (an
/// Android or web teammate's, a CI job's) serves them to the same effect without Swift.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the Swift targets as fixture files (one file per target type).",
        discussion: """
            Run from a targets package (its main.swift calls Stubd.main(targets:)). The same \
            targets always give byte-identical files, so exports can be committed.

              $ swift run stubd-targets export --out ../api-fixtures
              stubd: wrote 12 routes to ../api-fixtures/GitHubAPI.json
              $ stubd serve ../api-fixtures
            Routes are written by shape (any client's request for each endpoint reaches it: an Android \
            client's own headers and values, curl without the app's headers); --match exact writes \
            only the app's own requests, byte for byte.
            """
    )

    @Option(help: "Folder to write into (created if missing).")
    var out: String = "stubd-fixtures"

    @Flag(name: .customLong("omit-never"), help: "Leave out targets whose stubBehavior is .never (default: exported, answered at once).")
    var omitNever = false

    /// Shape by default: an export is for other clients (Android, web, curl), whose requests carry
    /// their own headers and values; the app's own requests still match (each target keeps its
    /// exact route where targets share a shape). `--match exact` writes byte-exact routes.
    @Option(name: .customLong("match"), help: "Write shape routes (any client's request for each endpoint; the default) or exact routes (only the app's own requests, byte for byte).")
    var match: MatchPolicy = .shape

    func run() throws {
        guard SwiftTargets.count > 0 else {
            printError("stubd: export writes Swift targets as fixtures, and this stubd has none; run it from a targets package whose main.swift calls Stubd.main(targets:) (see docs/MOYA.md)")
            throw ExitCode(1)
        }
        var arguments = FixtureArguments()
        arguments.fixtures = []
        arguments.omitNever = omitNever
        arguments.match = match
        let fixtures = try arguments.targetFixtures()
        var files: [(name: String, fixtures: [Fixture])] = []
        for fixture in fixtures {
            let name = Self.fileName(forSource: fixture.source)
            if let index = files.firstIndex(where: { $0.name == name }) {
                files[index].fixtures.append(fixture)
            } else {
                files.append((name, [fixture]))
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            printError("stubd: --out \(out): cannot write (\(error.localizedDescription)); pick a writable folder")
            throw ExitCode(1)
        }
        for file in files {
            do throws(ContainedWriteError) {
                try AtomicFile.write(Array(FixtureWriter.text(for: file.fixtures).utf8), named: file.name, inside: out)
            } catch {
                printError("stubd: --out \(error)")
                throw ExitCode(1)
            }
            printOut("stubd: wrote \(file.fixtures.count) routes to \((out as NSString).appendingPathComponent(file.name))")
        }
    }

    /// `GitHubAPI.json` for the source `swift GitHubAPI`; characters a file name should not hold
    /// become `_`.
    static func fileName(forSource source: String) -> String {
        let type = source.hasPrefix("swift ") ? String(source.dropFirst(6)) : source
        let safe = type.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }
        return String(safe) + ".json"
    }
}
