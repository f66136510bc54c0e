// swift-tools-version:6.0
import PackageDescription

/// One settings array for every Swift target, so the whole package is held to the same rules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "stubd",
    // macOS 15 for the server (Swift's Synchronization module); iOS, tvOS and watchOS only so that a
    // UI-test target can link StubdTesting, which depends on no server module.
    platforms: [.macOS(.v15), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "StubModel", targets: ["StubModel"]),
        .library(name: "FixtureFiles", targets: ["FixtureFiles"]),
        .library(name: "TargetModel", targets: ["TargetModel"]),
        .library(name: "StubServer", targets: ["StubServer"]),
        // HTTP/2 as bytes in and bytes out, for `make fuzz` (Fuzz/FuzzHTTP2).
        .library(name: "StubdHTTP2", targets: ["StubdHTTP2"]),
        // The admin API, declared once: endpoints and their typed bodies (the server and the kit).
        .library(name: "AdminContract", targets: ["AdminContract"]),
        // The whole server: serving core, admin API, dashboard, observers (`StubdServer.start`).
        .library(name: "StubdRuntime", targets: ["StubdRuntime"]),
        // Recording captured exchanges into fixtures, without the server.
        .library(name: "Recording", targets: ["Recording"]),
        // WireMock/HAR importers and the import writer (also used by Tools/stubd-openapi).
        .library(name: "Importers", targets: ["Importers"]),
        // The UI- and integration-test kit: Foundation only, builds for iOS, macOS and Linux.
        .library(name: "StubdTesting", targets: ["StubdTesting"]),
        // In-process serving of Moya targets: `RouteTable(targets:)`, `StubdServer.add(targets:)`.
        .library(name: "TargetServing", targets: ["TargetServing"]),
        // The whole command line for a targets package: `Stubd.main(targets:)`.
        .library(name: "StubdCLI", targets: ["StubdCLI"]),
        .executable(name: "stubd", targets: ["stubd"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibevent",
            pkgConfig: "libevent",
            providers: [.apt(["libevent-dev"]), .brew(["libevent"])]
        ),
        // libevent's OpenSSL bufferevents and OpenSSL itself, for HTTPS serving and upstreams (engine only).
        .systemLibrary(
            name: "CLibeventTLS",
            pkgConfig: "libevent_openssl",
            providers: [.apt(["libevent-dev", "libssl-dev"]), .brew(["libevent", "openssl@3"])]
        ),
        // nghttp2, the HTTP/2 framing and HPACK library (StubdHTTP2 only).
        .systemLibrary(
            name: "CNghttp2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["nghttp2"])]
        ),
        // zlib, to store recorded gzip/deflate bodies decoded (recording only).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // OpenSSL itself, for the machine's local CA (StubdCertificates).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // OpenSSL calls Swift cannot make (macros, a variadic key maker, the certificate build) as
        // plain C functions in a .c file; its header names OpenSSL's types without defining them.
        .target(name: "CStubdTLS", dependencies: ["COpenSSL"]),
        // libevent calls that need its request struct (http_struct.h), in C so Swift keeps seeing
        // evhttp_request as opaque (engine only).
        .target(name: "CStubdEvent", dependencies: ["CLibevent"]),
        // The machine's local CA and the certificates it issues (`stubd cert`, `--https-port`).
        .target(name: "StubdCertificates", dependencies: ["COpenSSL", "CStubdTLS", "StubdSystem"], swiftSettings: swiftSettings),
        // HTTP/2 as bytes in and bytes out (nghttp2's server session): one session per connection,
        // one request per stream, no socket and no event loop, so it runs in memory and under a
        // fuzzer; the engine drives it from a connection's bufferevent.
        .target(name: "StubdHTTP2", dependencies: ["StubdHTTP", "CNghttp2"], swiftSettings: swiftSettings),
        // The HTTP engine: libevent loops, TLS serving, replies, faults, dribbles, upstream calls.
        // The only module that imports libevent; it knows nothing of routes, stubs or the admin API.
        .target(
            name: "StubdEngine",
            dependencies: ["StubdHTTP", "StubdHTTP2", "StubdSystem", "CLibevent", "CLibeventTLS", "CStubdTLS", "CStubdEvent",
                           .product(name: "Atomics", package: "swift-atomics")],
            swiftSettings: swiftSettings
        ),
        // The funnel for POSIX and platform calls (sockets, descriptors, files, signals), with the
        // Darwin and Glibc spellings side by side; nothing else in the package calls libc directly.
        .target(
            name: "StubdSystem",
            dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swiftSettings
        ),
        // What a stub is: request patterns, outcomes, scenarios, and the JSON library they use.
        .target(name: "StubModel", dependencies: ["StubdHTTP"], swiftSettings: swiftSettings),
        // The HTTP vocabulary the engine and the model share (header pairs, faults, a dribble,
        // checked numbers, dates, WebSocket frames): the engine depends on this, not on StubModel,
        // so it cannot name a fixture, a pattern or a template. StubModel re-exports it.
        .target(name: "StubdHTTP", swiftSettings: swiftSettings),
        // Fixture files: reading, writing and loading folders of them.
        .target(name: "FixtureFiles", dependencies: ["StubModel", "StubdSystem"], swiftSettings: swiftSettings),
        // Importers: WireMock mappings and HAR captures → fixtures (OpenAPI: Tools/stubd-openapi).
        .target(name: "Importers", dependencies: ["StubModel", "FixtureFiles", "StubdSystem"], swiftSettings: swiftSettings),
        // Recording: captured exchanges (proxied, from HAR) → fixture files off the serving loops,
        // with redaction and body decoding (zlib). Needs neither the engine nor the server.
        .target(
            name: "Recording",
            dependencies: ["StubModel", "FixtureFiles", "StubdSystem", "CZlib"],
            swiftSettings: swiftSettings
        ),
        // The Moya layer: TargetType, Task, Endpoint, encodings, and target → stub.
        .target(name: "TargetModel", dependencies: ["StubModel"], swiftSettings: swiftSettings),
        // The admin API's contract: every endpoint's method, path and typed bodies, read and
        // written by the server and the test kit alike. No engine, no server.
        .target(name: "AdminContract", dependencies: ["StubModel"], swiftSettings: swiftSettings),
        // What the serving core and every answer kind share: the byte budget of per-session
        // state, the `SessionState` a session reset walks, and stubd's own JSON replies.
        .target(name: "StubdState", dependencies: ["StubModel", "StubdEngine"], swiftSettings: swiftSettings),
        // Answer kinds: leaf modules below the serving core. Each takes an `OutcomeContext` (or its
        // parts) and cannot name `Route`, `Exchange`, the session store or the handler
        // (packaging/check-imports.py keeps them from importing StubServer).
        // Response templates rendered per request (parsing stays in StubModel, for the fixture reader).
        .target(name: "StubdTemplates", dependencies: ["StubModel", "StubdEngine", "StubdState"], swiftSettings: swiftSettings),
        // Streams of events and language-model answers, made per request into an engine script.
        .target(name: "StubdStreams", dependencies: ["StubModel", "StubdEngine", "StubdTemplates"], swiftSettings: swiftSettings),
        // A session's items of declared collections, and the answers of their routes.
        .target(name: "StubdCollections", dependencies: ["StubModel", "StubdEngine", "StubdState"], swiftSettings: swiftSettings),
        // WebSocket conversations played from a route's script, or relayed to an upstream; the
        // registry of open ones a test pushes to.
        .target(name: "StubdWebSockets", dependencies: ["StubModel", "StubdEngine", "StubdState", "StubdTemplates", "Recording"],
                swiftSettings: swiftSettings),
        // Matching: what a route's request pattern compiles to — one matcher per request part — and
        // the request as matchers read it (`RequestView`). Below the core: it names no route,
        // exchange or session, so the compiler keeps matching apart from serving.
        .target(name: "StubdMatching", dependencies: ["StubModel", "StubdEngine", "Recording"], swiftSettings: swiftSettings),
        // Serving: the exchange, routing, the request pipeline, the session store, miss forwarding. Knows nothing of
        // the admin API's handlers or the dashboard: an admin request is handed to the
        // `AdminResponder` it is given; each answer kind is one case of `CompiledOutcome`.
        .target(
            name: "StubServer",
            dependencies: [
                "StubModel",
                "AdminContract",
                "FixtureFiles",
                "StubdSystem",
                "StubdEngine",
                "Recording",
                "StubdState",
                "StubdTemplates",
                "StubdStreams",
                "StubdCollections",
                "StubdWebSockets",
                "StubdMatching",
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The admin API's handlers and who may call them, on the serving core's state.
        .target(
            name: "AdminAPI",
            dependencies: ["StubServer", "StubdState", "StubdTemplates", "StubdCollections", "StubdWebSockets", "AdminContract", "StubModel",
                           "FixtureFiles", "Recording", "StubdEngine", "StubdSystem"],
            swiftSettings: swiftSettings
        ),
        // Webhooks: an observer above the serving core that sends a route's webhooks once its
        // answer has gone, the log of those sent, and their two admin endpoints.
        // The forward proxy's front (`serve --proxy-port`) above the serving core: which host a proxied
        // request reaches, and where pass and record may connect (by address).
        .target(
            name: "StubdProxy",
            dependencies: ["StubServer", "StubdState", "StubModel", "StubdEngine", "StubdSystem", "Recording", "AdminContract"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StubdWebhooks",
            dependencies: ["StubServer", "AdminAPI", "AdminContract", "StubdTemplates", "StubdState", "StubModel", "StubdEngine"],
            swiftSettings: swiftSettings
        ),
        // Checks of a loaded table above the serving core (`stubd check`, `stubd serve`): routes
        // one request reaches alike, and routes that will not behave as written.
        .target(name: "RouteChecks", dependencies: ["StubServer", "StubModel", "StubdEngine"], swiftSettings: swiftSettings),
        // The dashboard: its page, styles and script (files, embedded at build time), the event
        // stream, the metrics and fixture drafts — endpoints it adds to the admin API.
        .target(
            name: "Dashboard",
            dependencies: ["AdminAPI", "StubServer", "StubdState", "StubdWebSockets", "AdminContract", "StubModel", "FixtureFiles", "StubdEngine",
                           .product(name: "Atomics", package: "swift-atomics")],
            resources: [.embedInCode("Resources/dashboard.html"), .embedInCode("Resources/dashboard.css"),
                        .embedInCode("Resources/dashboard.js")],
            swiftSettings: swiftSettings
        ),
        // A running server: the serving core with the admin API, the dashboard and the standard
        // observers (journal, metrics, webhooks, recorder, log line), started from one value.
        .target(
            name: "StubdRuntime",
            dependencies: ["StubdProxy", "StubServer", "StubdState", "StubdTemplates", "StubdWebhooks", "AdminAPI", "AdminContract", "Dashboard", "StubModel", "FixtureFiles", "StubdEngine",
                           "Recording", "StubdSystem", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // The test kit: a session per test, stubs and verification by target, over the admin API.
        // Depends on no server module (no libevent, no OpenSSL), so it builds for the Simulator.
        .target(name: "StubdTesting", dependencies: ["StubModel", "TargetModel", "AdminContract"], swiftSettings: swiftSettings),
        // Moya targets served in process: the two calls joining the server and the Moya layer.
        .target(name: "TargetServing", dependencies: ["StubdRuntime", "StubServer", "TargetModel", "StubModel"], swiftSettings: swiftSettings),
        // The commands (serve, routes, check, export, verify, …) without the Moya layer: Swift
        // targets reach them through a `SwiftTargetCatalog`. The plain `stubd` links only this, so
        // neither FoundationNetworking nor libcurl is in it (or in the container image).
        .target(
            name: "StubdCommands",
            dependencies: [
                "StubdRuntime",
                "StubServer",
                "StubdProxy",
                "RouteChecks",
                "AdminContract",
                "StubdState",
                "StubdTemplates",
                "StubdEngine",
                "StubdCertificates",
                "Recording",
                "StubModel",
                "FixtureFiles",
                "Importers",
                "StubdSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The command line for a targets package: `Stubd.main(targets:)` over the same commands.
        .target(name: "StubdCLI", dependencies: ["StubdCommands", "TargetModel", "StubModel"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "stubd",
            dependencies: ["StubdCommands"],
            swiftSettings: swiftSettings
        ),
        // What the test targets share: real clients (curl, URLSession, raw sockets, a Python
        // upstream), a server on a free port, and a whole stubd on the in-memory engine.
        .target(
            name: "StubdTestSupport",
            dependencies: ["StubdRuntime", "StubServer", "StubdState", "StubdTemplates", "AdminAPI", "Dashboard", "AdminContract", "StubdEngine", "FixtureFiles",
                           "StubModel", "TargetModel", "TargetServing", "StubdSystem", "Recording", "StubdTesting"],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        // The depth tags every suite carries (in memory, socket, process): `make check` runs the first.
        .target(name: "StubdTestTags", path: "Tests/Tags", swiftSettings: swiftSettings),
        .testTarget(name: "StubModelTests", dependencies: ["StubdTestTags", "StubModel"], swiftSettings: swiftSettings),
        .testTarget(name: "FixtureFilesTests", dependencies: ["StubdTestTags", "FixtureFiles", "StubModel"], swiftSettings: swiftSettings),
        .testTarget(name: "ImportersTests", dependencies: ["StubdTestTags", "Importers", "FixtureFiles", "StubModel"], swiftSettings: swiftSettings),
        .testTarget(name: "AdminContractTests", dependencies: ["StubdTestTags", "AdminContract", "StubModel"], swiftSettings: swiftSettings),
        .testTarget(name: "AdminAPITests", dependencies: ["StubdTestTags", "AdminAPI", "Dashboard", "StubdWebhooks", "AdminContract", "StubServer", "StubdEngine", "StubModel",
                                                         "StubdTestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "StubdTestingTests", dependencies: ["StubdTestTags", "StubdTesting", "StubdRuntime", "StubServer", "AdminAPI", "AdminContract",
                                                             "Dashboard", "FixtureFiles", "StubdEngine", "TargetModel", "StubModel", "StubdSystem",
                                                             "StubdTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "TargetModelTests", dependencies: ["StubdTestTags", "TargetModel", "FixtureFiles"], swiftSettings: swiftSettings),
        .testTarget(name: "RecordingTests", dependencies: ["StubdTestTags", "Recording", "StubModel", "FixtureFiles"], swiftSettings: swiftSettings),
        .testTarget(name: "StubdSystemTests", dependencies: ["StubdTestTags", "StubdSystem"], swiftSettings: swiftSettings),
        .testTarget(name: "StubdHTTP2Tests", dependencies: ["StubdTestTags", "StubdHTTP2", "StubdHTTP"], swiftSettings: swiftSettings),
        .testTarget(name: "StubdMatchingTests", dependencies: ["StubdTestTags", "StubdMatching", "StubModel", "StubdEngine"], swiftSettings: swiftSettings),
        .testTarget(
            name: "StubServerTests",
            dependencies: ["StubdTestTags", "StubServer", "StubdState", "StubdTemplates", "StubdStreams", "StubdCollections", "StubdWebSockets", "StubdWebhooks", "RouteChecks", "StubdRuntime", "AdminAPI", "Dashboard",
                           "AdminContract", "StubdEngine", "StubdCertificates", "Recording",
                           "StubModel", "FixtureFiles", "TargetModel", "TargetServing", "StubdSystem", "StubdTesting", "StubdTestSupport", "StubdMatching"],
            swiftSettings: swiftSettings
        ),
        // The manual's Swift blocks, generated by Tests/docs/snippets_test.py and compiled as a user
        // compiles them (checked against the docs by make test); nothing to run.
        .testTarget(name: "DocsSnippets", dependencies: ["StubdTesting", "StubdRuntime", "TargetModel", "TargetServing", "FixtureFiles"],
                    swiftSettings: swiftSettings),
        .testTarget(
            name: "stubdTests",
            dependencies: ["StubdTestTags", "stubd", "StubdCLI", "StubdCommands", "StubdRuntime", "StubServer", "StubdEngine", "StubdCertificates", "StubdSystem", "StubModel",
                           "StubdTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
