public import ArgumentParser
import Foundation
import StubdRuntime
import RouteChecks
import FixtureFiles
import Importers
import StubdSystem
import StubModel

/// The fixture paths every subcommand takes, the Swift targets of a targets package, and the
/// shared load-and-compile step.
struct FixtureArguments: ParsableArguments {
    @Argument(help: "Fixture folders or .json files (default: ./fixtures; in a targets package, ./fixtures only if it exists; with --wiremock, none).")
    var fixtures: [String] = []

    @Flag(name: .customLong("omit-never"), help: "Leave out Swift targets whose stubBehavior is .never (default: served at once).")
    var omitNever = false

    @Option(name: .customLong("wiremock"), help: "A WireMock root (mappings/ and __files/) to serve as well, converted in memory (repeatable).")
    var wiremockRoots: [String] = []

    @Flag(name: .customLong("global-response-templating"), help: "With --wiremock: every response is a template (WireMock's flag of the same name).")
    var globalResponseTemplating = false

    @Option(name: .customLong("template-helpers"), help: "With --wiremock: a JSON file declaring the suite's own Handlebars helpers as stubd templates.")
    var templateHelpers: String?

    @Option(name: .customLong("match"), help: "How Swift targets match requests: exact (the app's own request) or shape (any client's request for the endpoint).")
    var match: MatchPolicy = .exact

    func validate() throws {
        for path in fixtures {
            if let refusal = SubcommandSuggestion.refusal(for: path, exists: { FileManager.default.fileExists(atPath: $0) }) {
                throw refusal
            }
        }
    }

    var paths: [String] {
        if !fixtures.isEmpty { return fixtures }
        if !wiremockRoots.isEmpty { return [] }
        if SwiftTargets.count == 0 || System.listDirectory("fixtures") != nil { return ["fixtures"] }
        return []
    }

    /// What is served, for banners: the paths and the number of Swift targets.
    var sourceDescription: String {
        var parts = paths + wiremockRoots.map { "WireMock \($0)" }
        if SwiftTargets.count > 0 { parts.append("\(SwiftTargets.count) Swift targets") }
        return parts.joined(separator: " + ")
    }

    /// The Swift targets as fixtures, printing every target that cannot be compiled (exit 1) and,
    /// when `report`, the ones left out.
    func targetFixtures(report: Bool = true) throws -> [Fixture] {
        guard let catalog = SwiftTargets.catalog else { return [] }
        do {
            let compiled = try catalog.compile(omitNever: omitNever, match: match)
            if report && !compiled.omitted.isEmpty {
                printError("stubd: left out \(compiled.omitted.count) target(s) whose stubBehavior is .never (--omit-never): \(compiled.omitted.joined(separator: ", "))")
            }
            if report {
                for shared in compiled.sharedShapes {
                    printError("warning: \(shared.target) has the same shape as \(shared.answeredBy): requests with its own values reach it, other values reach \(shared.answeredBy)")
                }
            }
            return compiled.fixtures
        } catch {
            for line in error.lines { printError(line) }
            printError("stubd: \(error.lines.count) target(s) cannot be compiled; nothing was served")
            throw ExitCode(1)
        }
    }

    /// The `--wiremock` roots' mappings, converted; unsupported fields are warnings, a refused
    /// mapping file is an error (nothing is served).
    func wiremockFixtures() throws -> [Fixture] {
        var fixtures: [Fixture] = []
        var errors = 0
        for root in wiremockRoots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                printError("stubd: error: --wiremock \(root) is not a folder; give the WireMock root (the folder holding mappings/)")
                throw ExitCode(1)
            }
            let helpers = try TemplateHelpersFile.load(templateHelpers)
            for file in WireMockImporter.importRoot(root, globalTemplating: globalResponseTemplating, helpers: helpers) {
                for line in file.unsupported { printError("warning: \(line)") }
                for error in file.errors { printError(error.description) }
                errors += file.errors.count
                fixtures += file.fixtures
            }
        }
        if errors > 0 {
            printError("stubd: \(errors) problem(s) in the WireMock mappings; nothing was served")
            throw ExitCode(1)
        }
        return fixtures
    }

    /// Loads and compiles the fixtures and targets, printing every problem as
    /// `file: field: problem` on standard error and exiting with status 1 if there is any;
    /// warnings are printed and kept.
    func loadTable() throws -> RouteTable {
        var fixtures: [Fixture]
        do {
            fixtures = paths.isEmpty ? [] : try FixtureLoader.load(paths: paths)
        } catch {
            for problem in error.errors { printError(problem.description) }
            printError("stubd: \(error.errors.count) problem(s) in \(paths.joined(separator: " ")); nothing was served")
            throw ExitCode(1)
        }
        fixtures += try wiremockFixtures()
        fixtures += try targetFixtures()
        let table: RouteTable
        do {
            table = try RouteTable(fixtures: fixtures)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        for warning in FixtureLoader.unreadFileWarnings(paths: paths) + table.warnings + RouteLint.warnings(table) + RouteOverlaps.warnings(table) { printError("warning: \(warning)") }
        return table
    }
}

extension MatchPolicy: ExpressibleByArgument {}

/// Writes a line to standard error.
package func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes a line to standard output at once (unbuffered), so scripts waiting for the
/// "serving" line see it immediately.
package func printOut(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
