import ArgumentParser
import StubModel
import StubdRuntime
import Foundation

/// `stubd routes`: the compiled table as a table.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List the routes the fixtures define.",
        discussion: """
              $ stubd routes
              METHOD  PATH  STATUS  BEHAVIOUR  NAME  SOURCE
              GET     /zen  200     immediate  zen   fixtures/github.json routes[0]
            """
    )

    @OptionGroup var fixtureArguments: FixtureArguments

    func run() throws {
        let table = try fixtureArguments.loadTable()
        print(RouteListing.render(table))
    }
}

/// Renders a route table as aligned columns.
enum RouteListing {
    static func render(_ table: RouteTable) -> String {
        var rows = [["METHOD", "PATH", "STATUS", "BEHAVIOUR", "NAME", "SOURCE"]]
        for route in table.routes {
            let request = route.fixture.request
            var path = request.path.description
            if let host = request.host { path = "//" + host + path }
            let query = request.query.pairs.map(\.description) + request.query.present.map { "\($0)=*" }
            if !query.isEmpty { path += "?" + query.joined(separator: "&") }
            rows.append([request.method, path, route.outcomeLabel, route.behaviourLabel, route.name, route.fixture.source])
        }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
