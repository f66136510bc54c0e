import Foundation
import Testing
import StubdTestTags

/// Examples/MyServerApp: an app's Moya API file (`import Moya`, `Moya.Method`, the "MyServerType"
/// style with `.never` by default) and the stubd targets package beside it, built here with
/// SwiftPM as a team would build it, then run.
@Suite(.serialized, .tags(.process)) struct ExamplePackageTests {
    /// The checkout as a folder named `stubd` (a symbolic link), as a team's default clone is
    /// named: a package folder of the same name would clash with it, so building through this
    /// path proves the example (what `stubd init` writes) does not.
    static let checkoutNamedStubd: String = {
        let root = StubdProcess.repositoryRoot.path
        let hash = root.utf8.reduce(UInt32(2166136261)) { ($0 ^ UInt32($1)) &* 16777619 }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-checkout-\(String(hash, radix: 16))").path
        let link = folder + "/stubd"
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != root {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root)
        }
        return link
    }()
    static let package = checkoutNamedStubd + "/Examples/MyServerApp/StubdTargets"
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
        // Two servers, one path: the header docs/MOYA.md's recipe adds, or the Host itself, tells them apart.
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
        // Exports are by shape by default: an Android teammate's own requests reach them too.
        let teammateAnswers = Self.answers(from: plain.baseURL, for: Self.androidRequests)
        _ = plain.stop()
        #expect(fixtureAnswers == swiftAnswers, "the plain stubd serves the export to the same effect")
        #expect(teammateAnswers == Self.androidAnswers, "the default export answers another platform's requests")
        // --match exact keeps byte-exact routes: only the app's own requests.
        let exact = first + "-exact"
        defer { try? FileManager.default.removeItem(atPath: exact) }
        #expect(try StubdProcess.run(["export", "--match", "exact", "--out", exact], program: Self.executable, directory: Self.directory).status == 0)
        let exactServed = try ServingStubd([exact, "--port", "0"])
        let exactApp = Self.answers(from: exactServed.baseURL), exactAndroid = Self.answers(from: exactServed.baseURL, for: Self.androidRequests)
        _ = exactServed.stop()
        #expect(exactApp == swiftAnswers)
        #expect(exactAndroid.filter { $0.hasSuffix(" 404") }.count >= 4, "\(exactAndroid)")
    }

    /// `stubd-targets verify` decodes the fixture and the live body with the type each target names
    /// (`ResponseDecoding`, in the package's ResponseTypes.swift): the failure the app would meet,
    /// located by path, without the live value (issue 34).
    @Test func verifyDecodesWithTheAppsOwnTypes() throws {
        try Self.build()
        let drifted = try StubdProcess.temporaryFolder(["api.json": #"""
            {"routes": [
              {"request": {"method": "GET", "path": "/v1/me"}, "response": {"json": {"id": "1", "name": "Ada", "token": "SECRET-LIVE-3"}}},
              {"request": {"method": "GET", "path": "/v1/search", "anyOtherQuery": true}, "response": {"json": {"results": [1, "two"]}}}
            ]}
            """#])
        let realAPI = try ServingStubd([drifted, "--port", "0"])
        defer { _ = realAPI.stop() }
        let report = try StubdProcess.run(["verify", "--upstream", realAPI.baseURL], program: Self.executable, directory: Self.directory)
        #expect(report.status == 1, "\(report.stdout) \(report.stderr)")
        for line in ["decode Profile: fixture decodes; live body fails at $.id: expected Int, got string",
                     "decode SearchResults: fixture decodes; live body fails at $.results[0]: expected String, got number"] {
            #expect(report.stdout.contains(line), "missing \(line) in:\n\(report.stdout)")
        }
        // LegacyAPI names no type: its drift is the shape's only.
        #expect(report.stdout.components(separatedBy: "decode ").count == 3, "\(report.stdout)")
        #expect(!report.stdout.contains("SECRET-LIVE-3"))
        let decodeOnly = try StubdProcess.run(["verify", "--upstream", realAPI.baseURL, "--fail-on", "type"], program: Self.executable, directory: Self.directory)
        #expect(decodeOnly.status == 0, "only the kinds --fail-on names fail the run")
    }

    @Test func omitNeverLeavesThemOutAndSaysWhich() throws {
        try Self.build()
        let routes = try StubdProcess.run(["routes", "--omit-never"], program: Self.executable, directory: Self.directory)
        #expect(routes.status == 0)
        #expect(!routes.stdout.contains("profile"))
        #expect(routes.stdout.contains("avatar(id: 7)"))
        #expect(routes.stderr.contains(#"left out 6 target(s) whose stubBehavior is .never (--omit-never): profile, updateProfile(name: "Ada"), search(query: "swift"), profile, upload, feed(page: 1)"#), "\(routes.stderr)")
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

    /// Examples/MyShop: a new app package with stubd as a path dependency and the kit in its test
    /// target, tested with `swift test` as a newcomer would run it — no `stubd` on `PATH`, no
    /// environment variables (`env -i`, only `PATH` without stubd and `HOME`): the kit finds the
    /// binary in the stubd package it came from and each test opens its own session.
    @Test func aNewPackageDependingOnStubdRunsItsSessionsWithNothingSetUp() throws {
        let shop = Self.checkoutNamedStubd + "/Examples/MyShop"
        let scratch = StubdProcess.repositoryRoot.appendingPathComponent(".build-examples-shop").path
        let environment = ProcessInfo.processInfo.environment
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .filter { !FileManager.default.isExecutableFile(atPath: "\($0)/stubd") }.joined(separator: ":")
        let swift = (environment["PATH"] ?? "").split(separator: ":").map { "\($0)/swift" }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swift"
        let run = {
            try StubdProcess.run(["-i", "PATH=\(path)", "HOME=\(environment["HOME"] ?? "/root")", swift, "test",
                                  "--package-path", shop, "--scratch-path", scratch],
                                 timeout: 900, program: URL(fileURLWithPath: "/usr/bin/env"))
        }
        var result = try run()
        // A stale scratch folder from an older stubd (see `swiftBuild`): once more, fresh.
        if result.status != 0, result.stdout.contains("error: ") || result.stderr.contains("error: ") {
            try? FileManager.default.removeItem(atPath: scratch)
            result = try run()
        }
        #expect(result.status == 0, "swift test in Examples/MyShop:\n\(result.stdout.suffix(3000))\n\(result.stderr.suffix(3000))")
        #expect(result.stdout.contains("3 tests") && !result.stdout.contains("failed"), "\(result.stdout.suffix(1500))")
    }

    /// The example package is what `stubd init` writes: run on a copy of the example's layout, it
    /// makes the same Package.swift (stubd by a relative path, so it can be committed) and link,
    /// and the same main.swift but for the payload cases the team filled in. The example's build
    /// above (next to a checkout named `stubd`) is therefore the build of an init package.
    @Test func initMakesTheExamplePackage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let checkout = root.appendingPathComponent("stubd")
        let api = checkout.appendingPathComponent("Examples/MyServerApp/API")
        try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
        let example = StubdProcess.repositoryRoot.appendingPathComponent("Examples/MyServerApp")
        try FileManager.default.copyItem(at: example.appendingPathComponent("API/MyServerAPI.swift"), to: api.appendingPathComponent("MyServerAPI.swift"))
        try FileManager.default.copyItem(at: StubdProcess.repositoryRoot.appendingPathComponent("Package.swift"), to: checkout.appendingPathComponent("Package.swift"))
        let made = try StubdProcess.run(["init", "stubd/Examples/MyServerApp/StubdTargets", "--api", "stubd/Examples/MyServerApp/API", "--stubd-package", "stubd"],
                                        directory: root)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("found 3 target type(s) in 1 file(s): 3 case(s) listed, 4 with values to fill in"), "\(made.stdout)")
        let generatedPackage = checkout.appendingPathComponent("Examples/MyServerApp/StubdTargets")
        let committed = example.appendingPathComponent("StubdTargets")
        let manifest = try String(contentsOf: generatedPackage.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest == (try String(contentsOf: committed.appendingPathComponent("Package.swift"), encoding: .utf8)),
                "Examples/MyServerApp/StubdTargets/Package.swift is stubd init's; regenerate it:\n\(manifest)")
        #expect(manifest.contains(#".package(name: "stubd", path: "../../..")"#))
        let shim = "Sources/Moya/Moya.swift"
        #expect(try String(contentsOf: generatedPackage.appendingPathComponent(shim), encoding: .utf8)
                == String(contentsOf: committed.appendingPathComponent(shim), encoding: .utf8))
        let link = "Sources/StubdTargets/MyServerAPI.swift"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: generatedPackage.appendingPathComponent(link).path)
                == FileManager.default.destinationOfSymbolicLink(atPath: committed.appendingPathComponent(link).path))
        let generated = try String(contentsOf: generatedPackage.appendingPathComponent("Sources/StubdTargets/main.swift"), encoding: .utf8).components(separatedBy: "\n")
        let filled = try String(contentsOf: committed.appendingPathComponent("Sources/StubdTargets/main.swift"), encoding: .utf8).components(separatedBy: "\n")
        #expect(generated.count == filled.count, "main.swift has init's lines:\n\(filled.joined(separator: "\n"))")
        for (line, team) in zip(generated, filled) where line != team {
            // `    // AccountAPI.updateProfile(name: <#String#>),` filled in as `    AccountAPI.updateProfile(name: "Ada"),`.
            let pieces = line.replacingOccurrences(of: "    // ", with: "    ").components(separatedBy: "<#")
            var pattern = "^" + NSRegularExpression.escapedPattern(for: pieces[0])
            for piece in pieces.dropFirst() {
                pattern += ".+" + NSRegularExpression.escapedPattern(for: piece.components(separatedBy: "#>").dropFirst().joined(separator: "#>"))
            }
            pattern += "$"
            #expect(team.range(of: pattern, options: .regularExpression) != nil, "\(team) fills in \(line)")
        }
        #expect(generated.contains("    // AccountAPI.updateProfile(name: <#String#>),"))
        #expect(generated.contains("    MediaAPI.upload,"))

        let again = try StubdProcess.run(["init", "stubd/Examples/MyServerApp/StubdTargets", "--api", "stubd/Examples/MyServerApp/API", "--stubd-package", "stubd"], directory: root)
        #expect(again.status == 1)
        #expect(again.stderr.contains("StubdTargets/Package.swift already exists; pass --force"), "\(again.stderr)")
        // A package folder named like the checkout is refused before anything is written.
        let clash = try StubdProcess.run(["init", "stubd-app/stubd", "--api", "stubd/Examples/MyServerApp/API", "--stubd-package", "stubd"], directory: root)
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("has the same SwiftPM identity as stubd's own package (stubd)"), "\(clash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("stubd-app").path))
        // A git URL: a versioned dependency, products referenced by its identity.
        let url = try StubdProcess.run(["init", "FromURL", "--api", "stubd/Examples/MyServerApp/API", "--stubd-package", "https://example.com/team/stubd.git"], directory: root)
        #expect(url.status == 0, "\(url.stderr)")
        let urlManifest = try String(contentsOf: root.appendingPathComponent("FromURL/Package.swift"), encoding: .utf8)
        #expect(urlManifest.contains(#".package(url: "https://example.com/team/stubd.git", from: ""#) && urlManifest.contains(#"package: "stubd")"#), "\(urlManifest)")
    }

    @Test func initRefusesFilesWithoutTargets() throws {
        let root = try StubdProcess.temporaryFolder(["Models.swift": "struct User { let name: String }\n"])
        let made = try StubdProcess.run(["init", "--api", "Models.swift"], directory: URL(fileURLWithPath: root))
        #expect(made.status == 1)
        #expect(made.stderr.contains("no type conforming to TargetType"), "\(made.stderr)")
    }
}
