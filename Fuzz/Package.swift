// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for stubd's parsers and lookup, built apart from the product so the main
// package stays free of sanitizer flags:
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address   (make fuzz does this)
// Each target defines LLVMFuzzerTestOneInput; -parse-as-library lets libFuzzer own `main`.
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "stubd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "stubd", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzFixtureReader",
            dependencies: ["FuzzDriver", .product(name: "FixtureFiles", package: "stubd"), .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzCanonicalisation",
            dependencies: ["FuzzDriver", .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzRouteLookup",
            dependencies: ["FuzzDriver", .product(name: "StubServer", package: "stubd"), .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzHTTPHead",
            dependencies: ["FuzzDriver", .product(name: "StubServer", package: "stubd"), .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzGraphQL",
            dependencies: ["FuzzDriver", .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzJSON",
            dependencies: ["FuzzDriver", .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzWebSocketFrames",
            dependencies: ["FuzzDriver", .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzServe",
            dependencies: ["FuzzDriver", .product(name: "StubdRuntime", package: "stubd"), .product(name: "StubServer", package: "stubd"),
                           .product(name: "FixtureFiles", package: "stubd"), .product(name: "StubModel", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
    ]
)
