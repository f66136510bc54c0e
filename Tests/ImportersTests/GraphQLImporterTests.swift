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
        #expect(fine.errors.isEmpty && fine.fixtures.map(\.name) == ["Profile", "Profile (GET)"])
    }

    /// Issue 49: an Apollo app's folder — fragments in a file of their own, spread in others — is read
    /// whole; a spread nothing defines is reported; a query gets a GET route too (persisted queries),
    /// a mutation only POST.
    @Test func fragmentsAreFollowedAcrossTheFilesOfAnImport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gql-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/fragments", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("fragment UserParts on User { id name avatar { url } }".utf8).write(to: URL(fileURLWithPath: folder + "/fragments/user.graphql"))
        try Data("query Profile { user { ...UserParts ...Gone } }\nmutation Save { save { ok } }".utf8)
            .write(to: URL(fileURLWithPath: folder + "/profile.graphql"))
        let files = GraphQLImporter.importPaths([folder], endpoint: "/graphql")
        let profile = try #require(files.first { $0.file.hasSuffix("profile.graphql") })
        #expect(profile.fixtures.map { "\($0.request.method) \($0.name)" } == ["POST Profile", "GET Profile (GET)", "POST Save"])
        guard case .response(let response)? = profile.fixtures.first?.outcome else { Issue.record("no response"); return }
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"data":{"user":{"id":null,"name":null,"avatar":{"url":null}}}}"#)
        #expect(profile.unsupported.contains { $0.contains("fragment Gone is spread") }, "\(profile.unsupported)")
    }

    /// An Apollo manifest's ids are the hashes its persisted-query client sends: the routes carry them.
    @Test func aManifestsHashesAreKeptOnItsRoutes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gql-\(UUID().uuidString).json").path
        try Data(#"{"format": "apollo-persisted-query-manifest", "version": 1, "operations": [{"id": "2f1a", "name": "Feed", "type": "query", "body": "query Feed { feed { id } }"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let imported = GraphQLImporter.importFile(path, endpoint: "/graphql")
        #expect(imported.fixtures.map(\.request.method) == ["POST", "GET"])
        #expect(imported.fixtures.allSatisfy { $0.request.graphQL?.persistedQueryHash == "2f1a" && $0.request.graphQL?.operationName == "Feed" })
    }
}
