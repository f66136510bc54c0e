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
                .product(name: "Moya", package: "stubd"),
            ],
            path: "Sources/StubdTargets"
        ),
    ]
)
