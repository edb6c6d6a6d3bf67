// swift-tools-version: 6.1
// The layers and the only imports allowed between them are drawn in ARCHITECTURE.md
// (its edge list is checked against this file and every import by ArchitectureTests).
import PackageDescription

let package = Package(
    name: "destinations",
    platforms: [.macOS(.v15)],
    // Only the toolkit is a product. A package that depends on this one resolves the
    // dependencies of every target its declared products reach (SwiftPM 6.3: target-based
    // resolution is compiled out), so the app, the feed server and the feed client —
    // async-http-client, Hummingbird, GRDB, swift-nio-ssl, swift-crypto … — are not products:
    // a dependent resolves swift-collections and nothing else (D-075). `swift build
    // --product destinations` still works here: a root package's executable targets are
    // products of their own.
    products: [
        .library(name: "CoreKit", targets: ["CoreKit"]),
        .library(name: "CellCanvas", targets: ["CellCanvas"]),
        .library(name: "CollectionKit", targets: ["CollectionKit"]),
        .library(name: "TerminalFront", targets: ["TerminalFront"]),
        .library(name: "RenderLoop", targets: ["RenderLoop"]),
        .library(name: "DiffableData", targets: ["DiffableData"]),
        .library(name: "ImagePipeline", targets: ["ImagePipeline"]),
        .library(name: "FeedFormat", targets: ["FeedFormat"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The feed server's graceful stop (already here for Hummingbird): cancelling a server's
        // task while it has accepted a connection it has not served traps in swift-nio.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        // `make docs`: the DocC catalogues of the library products (swift package generate-documentation).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // What lasts (issue 26): SQLite for the HTTP cache's index and the app's state.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Tables that grow page by page without a rehash of the whole table on the main
        // thread (TreeDictionary, D-055); already here for swift-nio.
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
    ],
    targets: [
        // C libraries, each behind a shim header and one Swift file that imports it.
        // ncursesw without pkgConfig: its pkg-config flags are only -D defines, which SwiftPM
        // refuses with a warning at every build; the shim defines what they would.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),

        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CChafa", path: "Sources/CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),

        // Restoring the terminal from a signal handler (async-signal-safe C, real globals).
        .target(name: "CTerminalRestore", path: "Sources/CTerminalRestore"),
        // The frame loop's time slice: sched_setattr(2), which glibc 2.36 does not wrap.
        .target(name: "CThreadScheduling", path: "Sources/CThreadScheduling"),

        // Pure Swift layers.
        .target(name: "CoreKit", dependencies: ["CThreadScheduling"]),
        .target(name: "CTerminalWidth", path: "Sources/CTerminalWidth"),
        .target(name: "CImageFormats", path: "Sources/CImageFormats",
                linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("gif")]),
        .target(name: "CellCanvas", dependencies: ["CoreKit", "CTerminalWidth"]),
        .target(name: "RenderLoop", dependencies: ["CoreKit"]),
        .target(name: "DiffableData"),

        // Files to terminal cells, off the main thread.
        .target(name: "ImagePipeline", dependencies: ["CoreKit", "CellCanvas", "CTurboJPEG", "CPNG", "CImageFormats", "CChafa",
                                                      .product(name: "HashTreeCollections", package: "swift-collections")]),

        // Layout, scrolling, cells and their lifecycle, prefetching, the diffable data source.
        .target(name: "CollectionKit", dependencies: ["CoreKit", "CellCanvas", "DiffableData", "RenderLoop"]),

        // The app's model: destination posts and the catalogue (no UI).
        .target(name: "DestinationsModel", dependencies: ["CoreKit", "FeedFormat", "ImagePipeline",
                                                          .product(name: "HashTreeCollections", package: "swift-collections")]),

        // A feed's wire format: Mastodon timelines, Link headers, BlurHash, HTML to plain text.
        .target(name: "FeedFormat"),

        // The network: pages of a feed and photos over HTTP (async-http-client), below the frame loop.
        .target(name: "FeedClient", dependencies: [
            "CoreKit", "FeedFormat", "HTTPCache", "ImagePipeline", "SavedState",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),

        // The HTTP cache on disk (RFC 9111's rules from FeedFormat; bodies as files, an
        // index in SQLite through GRDB; a cap enforced on write).
        .target(name: "HTTPCache", dependencies: ["CoreKit", "FeedFormat", .product(name: "GRDB", package: "GRDB.swift")]),
        // What the person did that must last: likes, their outbox, the place (SQLite, D-051).
        .target(name: "SavedState", dependencies: ["CoreKit", .product(name: "GRDB", package: "GRDB.swift")]),

        // A feed to browse on loopback (Hummingbird): the bundled posts or a photo folder as a
        // Mastodon timeline, with a network shaped by flags. Not linked into the app.
        .target(name: "FeedServer", dependencies: [
            "CoreKit", "FeedFormat", "ImagePipeline", "DestinationsModel",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "HummingbirdHTTP2", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .executableTarget(name: "destinations-feed", dependencies: [
            "FeedServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // The only module that talks to the terminal.
        .target(name: "TerminalFront", dependencies: ["CoreKit", "CellCanvas", "RenderLoop", "CNcursesw", "CTerminalRestore"]),

        // The app.
        .executableTarget(
            name: "destinations",
            dependencies: [
                "CoreKit", "CellCanvas", "CollectionKit", "DestinationsModel", "FeedClient", "FeedFormat", "HTTPCache", "ImagePipeline", "RenderLoop", "DiffableData",
                "SavedState", "TerminalFront",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Micro- and scheduler benchmarks (`make bench`); release builds only.
        .executableTarget(
            name: "destinations-bench",
            dependencies: [
                "CoreKit", "RenderLoop", "DiffableData", "ImagePipeline", "CImageFormats", "CellCanvas", "CollectionKit", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks"
        ),

        // libFuzzer targets (`make fuzz`: built with -sanitize=fuzzer,address -DFUZZING into
        // .build-fuzz; a normal build makes stubs that say so).
        .target(name: "FuzzSupport", path: "Fuzz/Support"),
        .executableTarget(name: "fuzz-images", dependencies: ["ImagePipeline", "FuzzSupport"], path: "Fuzz/Images"),
        .executableTarget(name: "fuzz-exif", dependencies: ["ImagePipeline", "FuzzSupport"], path: "Fuzz/Exif"),
        .executableTarget(name: "fuzz-catalogue", dependencies: ["DestinationsModel", "FuzzSupport"], path: "Fuzz/Catalogue"),
        .executableTarget(name: "fuzz-feed", dependencies: ["FeedFormat", "FuzzSupport"], path: "Fuzz/Feed"),

        // Shared test support: manual clocks, seeded RNG, changeset checkers.
        .target(name: "TestSupport", dependencies: ["CoreKit", "RenderLoop", "DiffableData"], path: "Tests/TestSupport"),
        .testTarget(name: "CoreKitTests", dependencies: ["CoreKit", "TestSupport"]),
        .testTarget(name: "RenderLoopTests", dependencies: ["CoreKit", "RenderLoop", "TestSupport"]),
        .testTarget(name: "DiffableDataTests", dependencies: ["CoreKit", "DiffableData", "TestSupport"]),
        .testTarget(name: "CellCanvasTests", dependencies: ["CellCanvas"]),
        .testTarget(name: "TerminalFrontTests", dependencies: ["CellCanvas", "CNcursesw", "TerminalFront"]),
        .testTarget(name: "CollectionKitTests", dependencies: ["CoreKit", "CollectionKit", "CellCanvas", "DiffableData", "RenderLoop", "TestSupport"]),
        .testTarget(name: "DestinationsModelTests", dependencies: ["CoreKit", "DestinationsModel", "ImagePipeline"]),
        .testTarget(name: "FeedFormatTests", dependencies: ["CoreKit", "FeedFormat"]),
        .testTarget(name: "SavedStateTests", dependencies: ["SavedState"]),
        .testTarget(name: "HTTPCacheTests", dependencies: ["FeedFormat", "HTTPCache", "cache-torture"]),
        // Killed with SIGKILL mid-write by HTTPCacheTests.
        .executableTarget(name: "cache-torture", dependencies: ["FeedFormat", "HTTPCache"], path: "Tests/CacheTorture"),
        // The client against destinations-feed on loopback, in-process.
        .testTarget(name: "FeedTests", dependencies: ["CoreKit", "FeedClient", "FeedFormat", "FeedServer", "HTTPCache", "ImagePipeline", "SavedState", "TestSupport",
                                                    .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ImagePipelineTests", dependencies: ["CoreKit", "CellCanvas", "ImagePipeline", "TestSupport"], resources: [.copy("Fixtures")]),
        // ARCHITECTURE.md, Package.swift and the sources' imports agree.
        .testTarget(name: "ArchitectureTests"),
        // The grid in-process on a virtual clock and a TestBackend (exact figures), and
        // end to end: the built binary headless and in tmux.
        .testTarget(name: "AppTests", dependencies: ["destinations", "CoreKit", "CellCanvas", "DestinationsModel", "ImagePipeline", "RenderLoop", "TerminalFront", "TestSupport", "FeedFormat"]),
    ],
    swiftLanguageModes: [.v6]
)
