// swift-tools-version:6.0
// A stubd targets package, made by `stubd init`: serves the app's Moya targets.
//   swift run stubd-targets serve --port 8080
//   swift run stubd-targets export --out ../stubd-fixtures
import PackageDescription

let package = Package(
    name: "StubdTargets",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "stubd", path: "../../.."),
    ],
    targets: [
        .executableTarget(
            name: "stubd-targets",
            dependencies: [
                .product(name: "StubdCLI", package: "stubd"),
                "Moya",
            ],
            path: "Sources/StubdTargets"
        ),
        // `import Moya` in the API files: stubd's Moya 15 surface under Moya's name.
        .target(name: "Moya", dependencies: [.product(name: "TargetModel", package: "stubd")]),
    ]
)
