// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// Tender: payment intents for Linux hosts, a Swift core behind a C API.
import PackageDescription

let package = Package(
    name: "tender",
    products: [
        // libtender.so: the C API. The Makefile links it with its own Swift runtime.
        .library(name: "tender", type: .dynamic, targets: ["Tender"]),
        // The privileged broker (docs/broker.md), installed as `tenderd`; not part of libtender.so.
        .executable(name: "tenderd", targets: ["TenderDaemon"]),
        // The command-line tool, installed as `tender`.
        .executable(name: "tender-cli", targets: ["TenderTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Test-only: property-based tests of TenderCore (no product depends on it).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The public C header, visible to Swift so `@c @implementation` checks every export.
        .systemLibrary(name: "CTender", path: "include"),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),

        .systemLibrary(
            name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),

        // libpq, for tenderd's PostgreSQL store only: libtender.so never links it (scripts/check-library.sh).
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),

        .systemLibrary(
            name: "CPAM", path: "Sources/CPAM", pkgConfig: "pam",
            providers: [.apt(["libpam0g-dev"])]),

        // The understanding models' bytes: binary files written by scripts/train-understanding-model.py, embedded with
        // C23 #embed (models.c) and checked against models.sha256 by `make check-model`.
        .target(
            name: "CTenderModel", path: "Sources/CTenderModel",
            exclude: ["intent_model.bin", "slot_model.bin", "lexicon.bin", "models.sha256"],
            cSettings: [.unsafeFlags(["-std=c23"])]),
        // Pure core: money, intents, resolution, dialog, understanding, ports. No I/O; its one C module is data.
        .target(name: "TenderCore", dependencies: ["CTenderModel"]),
        // SQLite adapter: directory and payments in one WAL file.
        .target(name: "TenderStore", dependencies: ["TenderCore", "CSQLite"]),
        // OpenSSL adapter: Ed25519 keys and signatures, SHA-256, key files.
        .target(name: "TenderCrypto", dependencies: ["TenderCore", "COpenSSL"]),
        // PAM adapter: re-authentication through the system login.
        .target(name: "TenderAuth", dependencies: ["TenderCore", "CPAM"]),
        // PostgreSQL adapter: tenderd's store on a shared database (docs/scale.md). Only tenderd links it.
        .target(name: "TenderPostgres", dependencies: ["TenderCore", "TenderStore", "TenderCrypto", "CLibPQ"]),
        // The broker protocol on Unix sockets: the client's ports and sessions, the daemon's socket (docs/broker.md).
        .target(name: "TenderBroker", dependencies: ["TenderCore"]),
        // The one place an engine is assembled (store, keys, PAM, clock), for the library, the CLI and the bench.
        .target(name: "TenderWiring", dependencies: ["TenderCore", "TenderStore", "TenderCrypto", "TenderAuth", "TenderBroker"]),
        // tenderd: the broker daemon, a host of the core with the store, keys and PAM of every client uid.
        .executableTarget(
            name: "TenderDaemon",
            dependencies: ["TenderCore", "TenderStore", "TenderCrypto", "TenderAuth", "TenderWiring", "TenderBroker", "TenderPostgres"],
            path: "Sources/TenderDaemon"),
        // The C ABI only. Exports nothing but `tender_*` (version script) under soname libtender.so.1.
        .target(
            name: "Tender", dependencies: ["CTender", "TenderCore", "TenderStore", "TenderCrypto", "TenderWiring"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Tender/exports.map",
                    "-Xlinker", "-soname=libtender.so.1",
                ])
            ]),
        .executableTarget(
            name: "TenderTool",
            dependencies: [
                "CTender", "TenderCore", "TenderStore", "TenderCrypto", "TenderAuth", "TenderWiring", "TenderBroker", "CSQLite", "COpenSSL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/TenderTool"),

        .testTarget(
            name: "TenderCoreTests",
            dependencies: ["TenderCore", .product(name: "PropertyBased", package: "swift-property-based")]),
        // Test-only helpers shared by the test targets (never part of a product).
        .target(name: "TenderTestSupport", path: "Tests/TenderTestSupport"),
        .testTarget(name: "TenderStoreTests", dependencies: ["TenderStore", "TenderCore", "TenderCrypto", "TenderTestSupport"]),
        .testTarget(name: "TenderCryptoTests", dependencies: ["TenderCrypto", "TenderCore", "TenderTestSupport"]),
        .testTarget(name: "TenderAuthTests", dependencies: ["TenderAuth", "TenderCore", "TenderStore", "TenderCrypto"]),
        .testTarget(name: "TenderWiringTests", dependencies: ["TenderWiring", "TenderCore", "TenderStore", "TenderTestSupport"]),
        .testTarget(name: "TenderPostgresTests", dependencies: ["TenderPostgres", "TenderCore", "TenderStore", "TenderCrypto"]),
        .testTarget(name: "TenderBrokerTests", dependencies: ["TenderBroker", "TenderCore", "TenderTestSupport"]),
    ]
)
