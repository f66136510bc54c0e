import Foundation
import Testing
import FixtureFiles
import StubModel
@testable import Importers
import StubdTestTags

/// `stubd import graphql` of documents past the reader's bounds (issue 43): refused whole with the
/// file, the place and the bound, instead of a stack overflow (a 25,000-deep file segfaulted).
@Suite(.tags(.inMemory)) struct GraphQLImporterTests {
    static func importing(_ text: String) throws -> ImportedFile {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gql-\(UUID().uuidString).graphql").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return GraphQLImporter.importFile(path, endpoint: "/graphql")
    }

    @Test func aDocumentPastTheBoundsIsRefusedWithTheFileAndTheBound() throws {
        let deep = try Self.importing("query Deep " + String(repeating: "{ a ", count: 25_000) + String(repeating: "}", count: 25_000))
        let problem = try #require(deep.errors.first).description
        #expect(deep.fixtures.isEmpty && problem.contains(".graphql") && problem.contains("line 1, column")
                && problem.contains("nested deeper than \(GraphQLDocument.maxDepth) levels"), "\(problem)")
        let fan = try Self.importing("query Fan { ...F0 }\n" + (0..<40).map { "fragment F\($0) on T { x { ...F\($0 + 1) } y { ...F\($0 + 1) } }" }.joined(separator: "\n")
                                     + "\nfragment F40 on T { leaf }")
        #expect(fan.fixtures.isEmpty && (fan.errors.first?.description.contains("more than \(GraphQLDocument.maxFields) fields") ?? false))
        let fine = try Self.importing("query Profile { viewer { id ...Name } }\nfragment Name on User { name }")
        #expect(fine.errors.isEmpty && fine.fixtures.map(\.name) == ["Profile"])
    }
}
