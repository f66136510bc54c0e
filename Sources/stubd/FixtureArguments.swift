import ArgumentParser
import Foundation
import StubServer
import FixtureFiles
import TargetModel

/// The fixture paths every subcommand takes, and the shared load-and-compile step.
struct FixtureArguments: ParsableArguments {
    @Argument(help: "Fixture folders or .json files (default: ./fixtures).")
    var fixtures: [String] = []

    var paths: [String] { fixtures.isEmpty ? ["fixtures"] : fixtures }

    /// Loads and compiles the fixtures, printing every problem as `file: field: problem` on
    /// standard error and exiting with status 1 if there is any; warnings are printed and kept.
    func loadTable() throws -> RouteTable {
        let fixtures: [Fixture]
        do {
            fixtures = try FixtureLoader.load(paths: paths)
        } catch {
            for problem in error.errors { printError(problem.description) }
            printError("stubd: \(error.errors.count) problem(s) in \(paths.joined(separator: " ")); nothing was served")
            throw ExitCode(1)
        }
        let table: RouteTable
        do {
            table = try RouteTable(fixtures: fixtures)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        for warning in FixtureLoader.unreadFileWarnings(paths: paths) + table.warnings { printError("warning: \(warning)") }
        return table
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Writes a line to standard output at once (unbuffered), so scripts waiting for the
/// "serving" line see it immediately.
func printOut(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
