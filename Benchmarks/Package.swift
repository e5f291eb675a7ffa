// swift-tools-version:6.1
// Benchmarks live in their own package so that CI and `swift test` never build them.
// Run them with Benchmarks/run.sh (see BENCHMARKS.md).
import PackageDescription

let package = Package(
    name: "LivePushBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // The same load as `livepush send --count`, sent through async-http-client instead of our
        // swift-nio-http2 client, to compare the two transports on the same endpoint.
        .executableTarget(
            name: "AHCBench",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
