// swift-tools-version:6.0
import PackageDescription

/// One settings array for every Swift target, so the whole package is held to the same rules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "stubd",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TargetModel", targets: ["TargetModel"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        .executable(name: "stubd", targets: ["stubd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"])]
        ),
        .target(name: "TargetModel", swiftSettings: swiftSettings),
        .target(
            name: "StubServer",
            dependencies: [
                "TargetModel",
                "CLibevent",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "stubd",
            dependencies: [
                "StubServer",
                "TargetModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "TargetModelTests", dependencies: ["TargetModel"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StubServerTests",
            dependencies: ["StubServer", "TargetModel"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "stubdTests",
            dependencies: ["stubd", "StubServer"],
            swiftSettings: swiftSettings
        ),
    ]
)
