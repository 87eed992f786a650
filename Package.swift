// swift-tools-version:6.0
// Tender: payment intents for Linux hosts, a Swift core behind a C API.
import PackageDescription

let package = Package(
    name: "tender",
    products: [
        // libtender.so: the C API. The Makefile links it with its own Swift runtime.
        .library(name: "tender", type: .dynamic, targets: ["Tender"]),
        // The command-line tool, installed as `tender`.
        .executable(name: "tender-cli", targets: ["TenderTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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

        .systemLibrary(
            name: "CPAM", path: "Sources/CPAM", pkgConfig: "pam",
            providers: [.apt(["libpam0g-dev"])]),

        // Pure core: money, intents, resolution, dialog, ports. No I/O, no C modules.
        .target(name: "TenderCore"),
        // SQLite adapter: directory and payments in one WAL file.
        .target(name: "TenderStore", dependencies: ["TenderCore", "CSQLite"]),
        // OpenSSL adapter: Ed25519 keys and signatures, SHA-256, key files.
        .target(name: "TenderCrypto", dependencies: ["TenderCore", "COpenSSL"]),
        // PAM adapter: re-authentication through the system login.
        .target(name: "TenderAuth", dependencies: ["TenderCore", "CPAM"]),
        // The C ABI only. Exports nothing but `tender_*` (version script) under soname libtender.so.0.
        .target(
            name: "Tender", dependencies: ["CTender", "TenderCore", "TenderStore", "TenderCrypto", "TenderAuth"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/Tender/exports.map",
                    "-Xlinker", "-soname=libtender.so.0",
                ])
            ]),
        .executableTarget(
            name: "TenderTool",
            dependencies: [
                "TenderCore", "TenderStore", "TenderCrypto", "TenderAuth", "CSQLite", "COpenSSL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/tender"),

        .testTarget(name: "TenderCoreTests", dependencies: ["TenderCore"]),
        .testTarget(name: "TenderStoreTests", dependencies: ["TenderStore", "TenderCore", "TenderCrypto"]),
        .testTarget(name: "TenderCryptoTests", dependencies: ["TenderCrypto", "TenderCore"]),
        .testTarget(name: "TenderAuthTests", dependencies: ["TenderAuth", "TenderCore", "TenderStore", "TenderCrypto"]),
    ]
)
