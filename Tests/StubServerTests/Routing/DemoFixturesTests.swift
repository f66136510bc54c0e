import Foundation
import Testing
import FixtureFiles
import TargetModel
import TargetServing
@testable import StubServer
import RouteChecks
@testable import StubdRuntime
@testable import AdminAPI
@testable import Dashboard
import AdminContract
import StubdTestTags

/// `fixtures/` and the `GitHubAPI` enum describe the same API; these prove it, and prove the
/// targets → exported files → loaded table round trip.
@Suite(.tags(.inMemory))
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
        #expect(fromFiles.warnings.isEmpty && RouteLint.warnings(fromFiles).isEmpty && RouteOverlaps.warnings(fromFiles).isEmpty)
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

    /// `.never` means "use the network" in the app, and stubd is that network: served at once,
    /// unless the team omits them, and then they are named.
    @Test func neverStubbedTargetsAreServedAtOnceUnlessOmitted() throws {
        struct Hidden: TargetType {
            var baseURL: URL { URL(string: "https://h")! }
            var path: String { "/hidden" }
            var method: TargetModel.Method { .get }
            var task: Task { .requestPlain }
            var headers: [String: String]? { nil }
            var stubBehavior: StubBehavior { .never }
        }
        let served = try RouteTable(targets: [Hidden()])
        #expect(served.routes.map(\.fixture.request.path.description) == ["/hidden"])
        #expect(served.routes.first?.fixture.delay == nil)
        #expect(try RouteTable(targets: [Hidden()], options: TargetCompileOptions(never: .omit)).routes.isEmpty)
        let compiled = try CompiledTargets.compile([Hidden()], options: TargetCompileOptions(never: .omit))
        #expect(compiled.omitted == ["Hidden()"])
    }
}
