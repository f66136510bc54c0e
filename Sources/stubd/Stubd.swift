import ArgumentParser

/// The `stubd` command: serve, list and check stub fixtures.
@main
struct Stubd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stubd",
        abstract: "A local HTTP stub server for APIs described the Moya way.",
        discussion: """
            Serves fixture files (JSON, see the README's "Fixture format") over HTTP from a libevent \
            event loop. FIXTURES defaults to ./fixtures.

              $ stubd serve --port 8080
              $ curl http://127.0.0.1:8080/zen
            """,
        subcommands: [ServeCommand.self, RoutesCommand.self, CheckCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
