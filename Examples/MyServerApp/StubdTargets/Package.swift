// swift-tools-version:6.0
// The stubd targets package of MyServerApp: serves the app's Moya targets with `swift run stubd-targets`.
import PackageDescription

let package = Package(
    name: "MyServerStubs",
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
