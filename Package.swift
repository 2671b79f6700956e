// swift-tools-version: 6.1
import PackageDescription

/// The scenes whose screen tests keep recorded screens in `Tests/SkiffTests/Scenes/<Scene>/__Snapshots__`.
let scenesWithSnapshots = [
    "ActivateCard", "AddCard", "Balance", "CardDetail", "Cards", "CardsPanel", "ForgotPassword", "Home", "Launch", "Lock",
    "Login", "Notifications", "Register", "SendMoney", "Spending", "TopUp", "TransactionDetail", "Transactions",
    "VerifyPhone",
]

/// `HomeBenchmarks` reaches the app's internals with `@testable import Skiff`. Debug builds allow that; a release
/// build for a benchmark run sets `SKIFF_BENCHMARK_TESTABLE=1`, which builds `Skiff` for testing. The product is
/// never built so: testability keeps internal classes open to subclassing, which costs optimisations.
import Foundation
let skiffTestability: [SwiftSetting] = ProcessInfo.processInfo.environment["SKIFF_BENCHMARK_TESTABLE"] == "1"
    ? [.unsafeFlags(["-enable-testing"])] : []

let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

/// The Swift runtime and static Foundation with the libraries it needs, linked into a release program so that it runs
/// on a machine without a Swift toolchain (the .deb's two programs: scripts/package-deb.sh).
let staticSwiftRuntime = ["-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections"]

/// How the release `skiff` is linked on Linux (docs/decisions/0102-release-client-static-and-packed.md and
/// 0107-release-client-link-order.md, BENCHMARKS.md): the Swift runtime and Foundation
/// linked in (`-static-stdlib`, with the libraries static Foundation needs), by lld with relative relocations
/// packed (`-z pack-relative-relocs`, which glibc 2.36 applies): fewer pages touched to start and to run (the
/// figures are in BENCHMARKS.md). Debug builds and the tests link as before.
let releaseClientLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
        ] + staticSwiftRuntime + [
            // After -static-stdlib's own -export-dynamic: none of the executable's 57,000 symbols need to be seen by
            // the dynamic linker, whose lookups and dladdr scan them at every start.
            "-Xlinker", "--no-export-dynamic",
            // The functions a session runs, together at the front of the code (`Sources/skiff/link-order.txt`, made
            // by scripts/link-order.py): the kernel maps 64 KB around each code page touched, so spread over 35 MB
            // they kept 19 MB of it resident. Names the build no longer has are skipped; new functions go after.
            "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/skiff/link-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release)
    ),
]

let package = Package(
    name: "Skiff",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "skiff-gallery", targets: ["skiff-gallery"]),
        .executable(name: "skiff", targets: ["skiff"]),
        .executable(name: "skiff-server", targets: ["skiff-server"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", exact: "2.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", exact: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", exact: "1.21.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: [
        // MARK: Terminal kit
        .systemLibrary(
            name: "CNcurses",
            path: "Sources/CNcurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // libdispatch's hooks for serving the main queue from a loop of our own (MainThreadLoop).
        .systemLibrary(name: "CDispatchMainQueue", path: "Sources/CDispatchMainQueue"),
        .target(name: "TerminalUI", dependencies: ["CNcurses", "CDispatchMainQueue"]),
        .executableTarget(name: "skiff-gallery", dependencies: ["TerminalUI"]),

        // MARK: Domain and contract
        .target(name: "SkiffCore"),
        // The TLS versions and cipher suites of the server and of both clients (the app's, PostgreSQL's).
        .target(name: "SkiffTLS", dependencies: [.product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .target(
            name: "SkiffAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The contract is also read at run time, for the operations that need no session
            // (docs/decisions/0005-contract-marks-unauthenticated-operations.md).
            resources: [.copy("openapi.yaml")],
            // `Generated/` is swift-openapi-generator's code for the contract, written by scripts/openapi-generate.sh
            // and checked current by CI, so the app's build never builds the generator
            // (docs/decisions/0202-generated-contract-code-committed.md). The generator writes `package import`s that
            // some of its files do not use; those warnings are about generated code only. Imports are internal unless
            // marked, as the generator marks its own: SwiftPM's resource accessor imports Foundation without a mark.
            swiftSettings: [.unsafeFlags(["-suppress-warnings"]), .enableUpcomingFeature("InternalImportsByDefault")]
        ),

        // MARK: Configuration files (TOML), read by both programs
        .target(name: "SkiffConfigFile", dependencies: [.product(name: "TOMLKit", package: "TOMLKit")]),

        // MARK: Backend
        .target(
            name: "SkiffPasswords",
            path: "Resources/Passwords",
            resources: [.copy("common-passwords.txt")]
        ),
        .target(
            name: "SkiffServer",
            dependencies: [
                "SkiffAPI", "SkiffCore", "SkiffPasswords", "SkiffTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "skiff-server",
            dependencies: [
                "SkiffServer", "SkiffCore", "SkiffConfigFile",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release on Linux: the Swift runtime linked in, as for the client (no lld or link order: it starts once).
            linkerSettings: [.unsafeFlags(staticSwiftRuntime, .when(platforms: [.linux], configuration: .release))],
            plugins: ["BuildInfo"]
        ),

        // MARK: Wallet app
        .target(
            name: "Skiff",
            dependencies: [
                "TerminalUI", "SkiffAPI", "SkiffCore", "SkiffTLS", "SkiffConfigFile",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: skiffTestability,
            // `ProblemAnswering` for every operation of the contract that answers a problem as `default`.
            plugins: ["ProblemAnswering"]
        ),
        .executableTarget(
            name: "skiff",
            dependencies: [
                "Skiff", "SkiffServer", "SkiffCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["link-order.txt"],
            linkerSettings: releaseClientLinking,
            plugins: ["BuildInfo"]
        ),

        // MARK: Tests
        // A certificate authority made at test time, for the TLS tests of the server and the app.
        .target(
            name: "SkiffTestCertificates",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/SkiffTestCertificates"
        ),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI"]),
        .testTarget(
            name: "SkiffCoreTests",
            dependencies: ["SkiffCore", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "SkiffAPITests", dependencies: ["SkiffAPI"]),
        .testTarget(name: "SkiffConfigFileTests", dependencies: ["SkiffConfigFile"]),
        .testTarget(
            name: "SkiffServerTests",
            dependencies: [
                "SkiffServer", "SkiffAPI", "SkiffCore", "SkiffTestCertificates",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SkiffTests",
            dependencies: [
                "Skiff", "SkiffCore", "SkiffServer", "TerminalUI", "SkiffTestCertificates", "SkiffConfigFile",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: scenesWithSnapshots.map { "Scenes/\($0)/__Snapshots__" },
            // Every scene's spies and the fuzzer's display taps, made from the scenes' protocols at build time.
            plugins: ["SceneDoubles"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["SkiffCore"]),

        // MARK: Benchmarks (`swift package benchmark`; built by every `swift build`, run by hand)
        .executableTarget(
            name: "TerminalKitBenchmarks",
            dependencies: ["TerminalUI", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/TerminalKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        .executableTarget(
            name: "ServerStoreBenchmarks",
            dependencies: [
                "SkiffServer", .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/ServerStoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        .executableTarget(
            name: "HomeBenchmarks",
            dependencies: [
                "Skiff", "SkiffCore", "TerminalUI", .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/HomeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // MARK: Tools
        // Reads the scenes' protocols and writes their test doubles (docs/decisions/new-doubles-generated-spies.md).
        .executableTarget(name: "SceneDoublesGenerator"),
        // `BuildInfo.commit` for the two programs' --version.
        .executableTarget(name: "BuildInfoGenerator"),
        .plugin(name: "BuildInfo", capability: .buildTool(), dependencies: ["BuildInfoGenerator"]),
        // Reads openapi.yaml and writes the app's `ProblemAnswering` conformances (docs/decisions/0195).
        .executableTarget(name: "ProblemAnsweringGenerator"),
        .plugin(name: "ProblemAnswering", capability: .buildTool(), dependencies: ["ProblemAnsweringGenerator"]),
        .plugin(name: "SceneDoubles", capability: .buildTool(), dependencies: ["SceneDoublesGenerator"]),
        .plugin(
            name: "ScaffoldScene",
            capability: .command(
                intent: .custom(
                    verb: "scaffold-scene",
                    description: "Writes a new scene (Models, ViewController, Interactor, Presenter and their tests) from Resources/SceneTemplates"
                ),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the new scene under Sources/Skiff and its tests under Tests/SkiffTests")
                ]
            )
        ),
    ],
    swiftLanguageModes: [.v6]
)
