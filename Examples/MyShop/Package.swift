// swift-tools-version:6.0
// A new app package that tests against stubd the way docs/UI-TESTS.md tells a newcomer to: stubd
// as a path dependency, the kit in the test target, nothing installed and no environment set —
// the kit finds (or builds) stubd itself. `swift test` runs it.
import PackageDescription

let package = Package(
    name: "MyShop",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "stubd", path: "../.."),
    ],
    targets: [
        .target(name: "MyShop", dependencies: ["Moya"]),
        .target(name: "Moya", dependencies: [.product(name: "TargetModel", package: "stubd")]),
        .testTarget(name: "MyShopTests", dependencies: ["MyShop", .product(name: "StubdTesting", package: "stubd")]),
    ]
)
