import ArgumentParser
import StubdRuntime
import RouteChecks

/// `stubd check`: validate fixtures without serving them.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate fixtures; exit 1 with 'file: field: problem' lines if any is wrong.",
        discussion: """
              $ stubd check fixtures
              fixtures: 7 routes OK
            """
    )

    @OptionGroup var fixtureArguments: FixtureArguments

    func run() throws {
        let table = try fixtureArguments.loadTable()
        let count = table.warnings.count + RouteLint.warnings(table).count
        let warnings = count == 0 ? "" : ", \(count) warning(s)"
        print("\(fixtureArguments.sourceDescription): \(table.routes.count) routes OK\(warnings)")
    }
}
