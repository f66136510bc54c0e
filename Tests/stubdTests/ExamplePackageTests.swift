import Foundation
import Testing

/// Examples/MyServerApp: an app's Moya API file (`import Moya`, `Moya.Method`, the "MyServerType"
/// style with `.never` by default) and the stubd targets package beside it, built here with
/// SwiftPM as a team would build it, then run.
@Suite(.serialized) struct ExamplePackageTests {
    static let package = StubdProcess.repositoryRoot.appendingPathComponent("Examples/MyServerApp/stubd").path
    static let scratch = StubdProcess.repositoryRoot.appendingPathComponent(".build-examples").path
    static let executable = URL(fileURLWithPath: scratch + "/debug/stubd-targets")
    /// Run from the package folder, as `swift run` would: no ./fixtures there, so only the targets.
    static let directory = URL(fileURLWithPath: package)

    /// The requests the app sends (Moya's exact headers and bodies), as curl arguments.
    static let appRequests: [[String]] = [
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "/v1/me"],
        ["-X", "PUT", "-H", "Content-Type: application/json", "-H", "x-flag: iOS", "--data", #"{"name":"Ada"}"#, "/v1/me"],
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "/v1/avatars/7"],
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "/v1/search?limit=20&q=swift"],
        // Two servers, one path: the header the README's recipe adds, or the Host itself, tells them apart.
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "-H", "X-Stubd-Host: legacy.myserver.example", "/v1/me"],
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "-H", "Host: legacy.myserver.example", "/v1/me"],
        ["-H", "Content-Type: application/json", "-H", "x-flag: iOS", "-H", "X-Stubd-Host: api.myserver.example", "/v1/me"],
        ["-H", "x-flag: iOS", "/feed?page=1"],
        ["-X", "POST", "-H", "Content-Type: application/x-www-form-urlencoded; charset=utf-8", "-H", "x-flag: iOS", "--data", "kind=photo", "/uploads"],
    ]

    /// What each of those gets.
    static let appAnswers = [#"{"id":1,"name":"Ada"} 200"#, #"{"id":1,"name":"Ada"} 200"#, "PNG 200", #"{"results":[]} 200"#,
                             #"{"id":1,"name":"Ada","legacy":true} 200"#, #"{"id":1,"name":"Ada","legacy":true} 200"#,
                             #"{"id":1,"name":"Ada"} 200"#, #"{"items":[]} 200"#, " 000"]

    /// The same endpoints as an Android client writes them: its own platform header, other
    /// parameter values, OkHttp's JSON Content-Type, curl's form Content-Type.
    static let androidRequests: [[String]] = [
        ["-H", "x-flag: Android", "/v1/me"],
        ["-X", "PUT", "-H", "Content-Type: application/json; charset=utf-8", "-H", "x-flag: Android", "--data", #"{"name":"Grace"}"#, "/v1/me"],
        ["-H", "x-flag: Android", "/v1/search?q=kotlin&limit=5"],
        ["-H", "x-flag: Android", "-H", "X-Stubd-Host: legacy.myserver.example", "/v1/me"],
        ["-H", "x-flag: Android", "/feed?page=2"],
        ["-X", "POST", "-H", "x-flag: Android", "--data", "kind=video", "/uploads"],
    ]
    static let androidAnswers = [#"{"id":1,"name":"Ada"} 200"#, #"{"id":1,"name":"Ada"} 200"#, #"{"results":[]} 200"#,
                                 #"{"id":1,"name":"Ada","legacy":true} 200"#, #"{"items":[]} 200"#, " 000"]

    static func build() throws {
        let result = try swiftBuild(["--package-path", package, "--scratch-path", scratch, "--product", "stubd-targets"])
        try #require(result.status == 0, "the example package must build:\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(3000))")
    }

    /// `swift build` with these arguments. SwiftPM keeps a path dependency's old package graph
    /// in an existing scratch folder: after a stubd source file is deleted ("missing inputs") or
    /// a module is added ("no such module"), it fails instead of planning again. A failed build
    /// is therefore tried once more in a fresh scratch folder (never needed on CI, whose clone is
    /// fresh); a real error fails both times.
    static func swiftBuild(_ arguments: [String]) throws -> StubdProcess.Finished {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        let result = try StubdProcess.run(["swift", "build"] + arguments, timeout: 900, program: env)
        guard result.status != 0, let index = arguments.firstIndex(of: "--scratch-path"), index + 1 < arguments.count else { return result }
        try? FileManager.default.removeItem(atPath: arguments[index + 1])
        return try StubdProcess.run(["swift", "build"] + arguments, timeout: 900, program: env)
    }

    /// What each app request gets: status and body (`000` when the connection failed).
    static func answers(from base: String, for requests: [[String]] = appRequests) -> [String] {
        requests.map { arguments in
            var arguments = arguments
            let path = arguments.removeLast()
            return StubdProcess.curl(arguments + ["-w", " %{http_code}", base + path])
        }
    }

    @Test func theAppsAPIFileBuildsServesEveryTargetAndExportsToTheSameEffect() throws {
        try Self.build()
        let routes = try StubdProcess.run(["routes"], program: Self.executable, directory: Self.directory)
        #expect(routes.status == 0, "\(routes.stderr)")
        for name in ["profile", "updateProfile(name: \"Ada\")", "avatar(id: 7)", "search(query: \"swift\")", "feed(page: 1)", "upload",
                     "//legacy.myserver.example/v1/me"] {
            #expect(routes.stdout.contains(name), "routes lists \(name):\n\(routes.stdout)")
        }

        let served = try ServingStubd(executable: Self.executable, arguments: ["serve", "--port", "0"], directory: Self.directory)
        let swiftAnswers = Self.answers(from: served.baseURL)
        _ = served.stop()
        #expect(served.banner.contains("serving 7 routes from 7 Swift targets on http://127.0.0.1:"), "\(served.banner)")
        // `.never` targets (the style's default) answer at once; the delayed one and the error too.
        #expect(swiftAnswers == Self.appAnswers)

        let first = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-export-\(UUID().uuidString)").path
        let second = first + "-again"
        defer { try? FileManager.default.removeItem(atPath: first); try? FileManager.default.removeItem(atPath: second) }
        for folder in [first, second] {
            let export = try StubdProcess.run(["export", "--out", folder], program: Self.executable, directory: Self.directory)
            #expect(export.status == 0, "\(export.stderr)")
        }
        for file in ["AccountAPI.json", "MediaAPI.json"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: first + "/" + file))
            let b = try Data(contentsOf: URL(fileURLWithPath: second + "/" + file))
            #expect(!a.isEmpty && a == b, "two exports of \(file) are byte-identical")
        }

        let plain = try ServingStubd([first, "--port", "0"])
        let fixtureAnswers = Self.answers(from: plain.baseURL)
        _ = plain.stop()
        #expect(fixtureAnswers == swiftAnswers, "the plain stubd serves the export to the same effect")
    }

    @Test func omitNeverLeavesThemOutAndSaysWhich() throws {
        try Self.build()
        let routes = try StubdProcess.run(["routes", "--omit-never"], program: Self.executable, directory: Self.directory)
        #expect(routes.status == 0)
        #expect(!routes.stdout.contains("profile"))
        #expect(routes.stdout.contains("avatar(id: 7)"))
        #expect(routes.stderr.contains(#"left out 6 target(s) whose stubBehavior is .never (--omit-never): profile, updateProfile(name: "Ada"), search(query: "swift"), profile, feed(page: 1), upload"#), "\(routes.stderr)")
    }

    /// `--match shape`: an Android client's requests reach the same targets, the app's own still do,
    /// and `export --match shape` gives the plain stubd the same behaviour.
    @Test func underTheShapePolicyAnotherPlatformsRequestsReachTheirTargets() throws {
        try Self.build()
        let exact = try ServingStubd(executable: Self.executable, arguments: ["serve", "--port", "0"], directory: Self.directory)
        let exactAndroid = Self.answers(from: exact.baseURL, for: Self.androidRequests)
        _ = exact.stop()
        #expect(exactAndroid.filter { $0.hasSuffix(" 404") }.count >= 4, "the exact policy is the app's request only: \(exactAndroid)")

        let shape = try ServingStubd(executable: Self.executable, arguments: ["serve", "--port", "0", "--match", "shape"], directory: Self.directory)
        let android = Self.answers(from: shape.baseURL, for: Self.androidRequests)
        let app = Self.answers(from: shape.baseURL)
        _ = shape.stop()
        #expect(android == Self.androidAnswers)
        #expect(app == Self.appAnswers)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-shape-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try StubdProcess.run(["export", "--match", "shape", "--out", folder], program: Self.executable, directory: Self.directory).status == 0)
        let plain = try ServingStubd([folder, "--port", "0"])
        let plainAndroid = Self.answers(from: plain.baseURL, for: Self.androidRequests)
        _ = plain.stop()
        #expect(plainAndroid == Self.androidAnswers)
    }

    /// `stubd init` on a copy of the example's API folder: main.swift lists the payload-free cases,
    /// comments the others with placeholders, links the API file, and the package builds.
    @Test func initMakesATargetsPackageThatBuilds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let api = root.appendingPathComponent("App/Networking")
        try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: StubdProcess.repositoryRoot.appendingPathComponent("Examples/MyServerApp/API/MyServerAPI.swift").path,
                                         toPath: api.appendingPathComponent("MyServerAPI.swift").path)
        let made = try StubdProcess.run(["init", "stubd", "--api", "App/Networking", "--stubd-package", StubdProcess.repositoryRoot.path],
                                        directory: root)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("found 3 target type(s) in 1 file(s): 3 case(s) listed, 4 with values to fill in"), "\(made.stdout)")
        let main = try String(contentsOf: root.appendingPathComponent("stubd/Sources/StubdTargets/main.swift"), encoding: .utf8)
        #expect(main.contains("    AccountAPI.profile,\n"))
        #expect(main.contains("    // AccountAPI.updateProfile(name: <#String#>),\n"))
        #expect(main.contains("    MediaAPI.upload,\n"))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("stubd/Sources/StubdTargets/MyServerAPI.swift").path)
        #expect(link == "../../../App/Networking/MyServerAPI.swift")

        let again = try StubdProcess.run(["init", "stubd", "--api", "App/Networking"], directory: root)
        #expect(again.status == 1)
        #expect(again.stderr.contains("stubd/Package.swift already exists; pass --force"), "\(again.stderr)")

        let build = try Self.swiftBuild(["--package-path", root.appendingPathComponent("stubd").path,
                                         "--scratch-path", StubdProcess.repositoryRoot.appendingPathComponent(".build-init").path])
        #expect(build.status == 0, "the generated package builds:\n\(build.stdout.suffix(3000))\n\(build.stderr.suffix(2000))")
        let routes = try StubdProcess.run(["routes"], program: StubdProcess.repositoryRoot.appendingPathComponent(".build-init/debug/stubd-targets"),
                                          directory: root.appendingPathComponent("stubd"))
        #expect(routes.stdout.contains("profile") && routes.stdout.contains("upload"), "\(routes.stdout)\(routes.stderr)")
    }

    @Test func initRefusesFilesWithoutTargets() throws {
        let root = try StubdProcess.temporaryFolder(["Models.swift": "struct User { let name: String }\n"])
        let made = try StubdProcess.run(["init", "--api", "Models.swift"], directory: URL(fileURLWithPath: root))
        #expect(made.status == 1)
        #expect(made.stderr.contains("no type conforming to TargetType"), "\(made.stderr)")
    }
}
