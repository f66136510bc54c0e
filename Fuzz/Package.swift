// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for stubd's parsers and lookup, built apart from the product so the main
// package stays free of sanitizer flags:
//   swift build --package-path Fuzz -Xswiftc -sanitize=fuzzer,address   (make fuzz does this)
// One executable, FuzzTargets, holds every target (FUZZ_TARGET picks one) and defines
// LLVMFuzzerTestOneInput; -parse-as-library lets libFuzzer own `main`.
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "stubd-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "stubd", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        // Every target in one executable (FUZZ_TARGET picks one): Fuzz/run.sh lists them.
        .executableTarget(
            name: "FuzzTargets",
            dependencies: ["FuzzDriver", .product(name: "StubdRuntime", package: "stubd"), .product(name: "StubServer", package: "stubd"),
                           .product(name: "FixtureFiles", package: "stubd"), .product(name: "StubModel", package: "stubd"), .product(name: "StubdHTTP2", package: "stubd")],
            swiftSettings: fuzzSettings
        ),
    ]
)
