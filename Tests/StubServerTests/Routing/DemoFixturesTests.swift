import Foundation
import Testing
import FixtureFiles
import TargetModel
@testable import StubServer

/// `fixtures/` and the `GitHubAPI` enum describe the same API; these prove it, and prove the
/// targets → exported files → loaded table round trip.
struct DemoFixturesTests {
    static let fixturesRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures").path

    @Test func compilingTheEnumAndLoadingFixturesGiveEqualTables() throws {
        let fromTargets = try RouteTable(targets: GitHubAPI.all)
        let fromFiles = try RouteTable(fixtures: try FixtureLoader.load(paths: [Self.fixturesRoot]))
        #expect(fromTargets.routes.count == 8)
        #expect(fromTargets.routes.map(\.fixture) == fromFiles.routes.map(\.fixture))
        for (target, file) in zip(fromTargets.routes, fromFiles.routes) where target.fixture != file.fixture {
            Issue.record("\(target.fixture) differs from \(file.fixture): \(target.fixture.request) \(target.fixture.outcome) vs \(file.fixture.request) \(file.fixture.outcome)")
        }
        #expect(fromFiles.warnings.isEmpty)
    }

    @Test func exportedTargetsLoadBackAsAnEqualTable() throws {
        let fromTargets = try RouteTable(targets: GitHubAPI.all)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(FixtureWriter.text(for: fromTargets.routes.map(\.fixture)).utf8)
            .write(to: folder.appendingPathComponent("exported.json"))
        let loaded = try RouteTable(fixtures: try FixtureLoader.load(paths: [folder.path]))
        #expect(loaded.routes.map(\.fixture) == fromTargets.routes.map(\.fixture))
    }

    @Test func neverStubbedTargetsAreLeftOut() throws {
        struct Hidden: TargetType {
            var baseURL: URL { URL(string: "https://h")! }
            var path: String { "/hidden" }
            var method: TargetModel.Method { .get }
            var task: Task { .requestPlain }
            var headers: [String: String]? { nil }
            var stubBehavior: StubBehavior { .never }
        }
        #expect(try RouteTable(targets: [Hidden()]).routes.isEmpty)
    }
}
