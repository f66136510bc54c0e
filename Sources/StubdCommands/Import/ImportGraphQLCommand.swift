import ArgumentParser
import Foundation
import Importers

/// `stubd import graphql OPERATIONS… --out DIR [--endpoint /graphql]`.
struct ImportGraphQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Turn an app's GraphQL operations (.graphql files or folders, or an Apollo persisted-query manifest) into one route per operation.",
        discussion: "Each named operation becomes POST ENDPOINT matched by its name, answering {\"data\": …} shaped by its selection set (null leaves: fill them in)."
    )

    @Argument(help: ".graphql/.gql files, folders of them, or an Apollo persisted-query manifest (.json).")
    var operations: [String]

    @Option(help: "Folder the fixture files are written to (created if missing).")
    var out: String

    @Option(help: "The GraphQL endpoint's path.")
    var endpoint = "/graphql"

    func validate() throws {
        guard !operations.isEmpty else { throw ValidationError("give the app's .graphql files or a folder of them") }
        guard endpoint.hasPrefix("/") else { throw ValidationError("--endpoint \(endpoint) must be a path starting with /, e.g. /graphql") }
    }

    func run() throws {
        let files = GraphQLImporter.importPaths(operations, endpoint: endpoint)
        let root = operations.count == 1 ? operations[0] : FileManager.default.currentDirectoryPath
        guard ImportOutput.write(files, out: out, strict: false, sourceRoot: root, fallbackRoot: root) else { throw ExitCode(1) }
    }
}
