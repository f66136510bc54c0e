// swift-tools-version:6.0
// stubd-openapi: the OpenAPI importer `stubd import openapi` runs. A package of its own so that
// OpenAPIKit and Yams are never cloned or built by `make run`, CI's serving build or a targets
// package — only by `make openapi`, `make dist`, `make install` and Homebrew.
import PackageDescription

let package = Package(
    name: "stubd-openapi",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stubd-openapi", targets: ["stubd-openapi"]),
    ],
    dependencies: [
        .package(name: "stubd", path: "../.."),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // OpenAPI examples → fixtures, with OpenAPIKit and Yams.
        .target(
            name: "OpenAPIImport",
            dependencies: [
                .product(name: "Importers", package: "stubd"),
                .product(name: "StubModel", package: "stubd"),
                .product(name: "FixtureFiles", package: "stubd"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "OpenAPIKitCompat", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "stubd-openapi",
            dependencies: ["OpenAPIImport", .product(name: "Importers", package: "stubd")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "OpenAPIImportTests",
            dependencies: ["OpenAPIImport", .product(name: "Importers", package: "stubd"), .product(name: "StubModel", package: "stubd")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
