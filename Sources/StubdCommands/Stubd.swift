public import ArgumentParser

/// The `stubd` command line: serve, list, check and export stubs from fixture files and, in a
/// targets package, from Swift `TargetType` values.
///
/// The plain `stubd` executable calls `Stubd.main(catalog: nil)`; a targets package's `main.swift`
/// calls `Stubd.main(targets:)` (module `StubdCLI`) with its API's targets and gets the same
/// commands for them.
public struct Stubd: ParsableCommand {
    /// The command's name, abstract, subcommands and examples.
    public static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "stubd",
        abstract: "A local HTTP stub server for APIs described the Moya way.",
        discussion: """
            Serves fixture files (JSON, see docs/FIXTURES.md) and, in a targets \
            package, Swift Moya targets over HTTP from a libevent event loop. FIXTURES defaults \
            to ./fixtures.

              $ stubd serve --port 8080
              $ curl http://127.0.0.1:8080/zen
            """,
        version: StubdVersion.current,
        subcommands: [ServeCommand.self, RoutesCommand.self, CheckCommand.self, ExportCommand.self, RecordCommand.self, VerifyCommand.self, ReadyCommand.self, ImportCommand.self, CertCommand.self, InitCommand.self, AdminSpecCommand.self, MCPCommand.self],
        defaultSubcommand: ServeCommand.self
    ) }

    /// Creates the command (argument parsing does).
    public init() {}

    /// Runs the command line with these Swift targets served beside any fixture folders given
    /// (`StubdCLI`'s `Stubd.main(targets:)` makes the catalog; the plain `stubd` has none). Never
    /// returns: exits with the command's status.
    public static func main(catalog: (any SwiftTargetCatalog)?, arguments: [String]? = nil) -> Never {
        SwiftTargets.catalog = catalog
        var given = arguments ?? Array(CommandLine.arguments.dropFirst())
        // `stubd version` and `stubd -v` are what other tools take; both are `--version` here
        // (`serve` is the default subcommand, so `version` was read as a fixture folder).
        if given == ["version"] || given == ["-v"] { given = ["--version"] }
        main(given)
        exit(withError: nil)
    }
}

/// The catalog handed to `Stubd.main(catalog:)`, read by the subcommands. Written once, before
/// any command is parsed, on the main thread; only read afterwards.
enum SwiftTargets {
    nonisolated(unsafe) static var catalog: (any SwiftTargetCatalog)?

    /// How many targets the catalog has (0 for the plain `stubd`).
    static var count: Int { catalog?.count ?? 0 }
}

/// The version `stubd --version` prints.
public enum StubdVersion {
    /// Semantic version of this build.
    public static let current = "0.12.0"
}
