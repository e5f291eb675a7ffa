// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let package = Package(
    name: "LivePush",
    // swift-configuration needs macOS 15; LivePushKit is for iOS 16 apps (its ActivityKit parts say 16.1 and later).
    platforms: [.macOS(.v15), .iOS(.v16)],
    products: [
        .executable(name: "livepush", targets: ["LivePushCLI"]),
        .library(name: "APNsCore", targets: ["APNsCore"]),
        .library(name: "APNsAuth", targets: ["APNsAuth"]),
        .library(name: "LiveActivity", targets: ["LiveActivity"]),
        .library(name: "APNsClient", targets: ["APNsClient"]),
        .library(name: "APNsSimulator", targets: ["APNsSimulator"]),
        .library(name: "LivePushTesting", targets: ["LivePushTesting"]),
        // The contract's types, generated from openapi.json (needs OpenAPIRuntime and LiveActivity): the bodies and answers
        // of `livepush serve`'s HTTP API, for code that reads or writes them without the client.
        .library(name: "LivePushAPITypes", targets: ["LivePushAPITypes"]),
        // The generated Swift client of `livepush serve`'s HTTP API (needs only OpenAPIRuntime; bring a transport).
        .library(name: "LivePushAPIClient", targets: ["LivePushAPIClient"]),
        // The app's half: reports an app's Live Activity tokens to `livepush serve`. Its target graph is
        // LivePushAPIClient (with LivePushAPITypes, APIContract, LiveActivity, APNsCore), OpenAPIRuntime, HTTPTypes and swift-log:
        // an app compiles nothing of NIO, Hummingbird or the stores (scripts/check-kit-graph.sh checks it).
        .library(name: "LivePushKit", targets: ["LivePushKit"]),
        // LivePushKit's adapter for the simulator's iPhones, for an app's tests on Linux (and the demo's iPhones).
        .library(name: "LivePushKitSimulation", targets: ["LivePushKitSimulation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The webhook's HTTP client (already resolved through Hummingbird).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // `livepush serve`'s settings: flags, environment and the JSON file through one reader. Only the
        // JSON trait (its FileProvider<JSONSnapshot>); no YAML, reloading or command-line provider.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["JSON"]),
        // FilePath, for the configuration's FileProvider (already in the graph through swift-configuration).
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        // The generated API client's runtime; URLSession is the transport its tests drive a server with.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        // HTTPRequest/HTTPResponse, for LivePushKit's own URLSession transport (already resolved through OpenAPIRuntime).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // Protocol vocabulary shared by the client, the simulator and the server: headers, reasons, tokens.
        .target(name: "APNsCore", swiftSettings: swiftSettings),
        // Provider authentication: .p8 keys, ES256 provider tokens (JWT), their cache and verification.
        .target(
            name: "APNsAuth",
            dependencies: [
                "APNsCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Live Activity payload model: typed builders, device-faithful encoding, validation.
        .target(name: "LiveActivity", dependencies: ["APNsCore"], swiftSettings: swiftSettings),
        // The HTTP/2 provider client: connections, pool, retries.
        .target(
            name: "APNsClient",
            dependencies: [
                "APNsCore", "APNsAuth",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The local APNs service and simulated devices.
        .target(
            name: "APNsSimulator",
            dependencies: [
                "APNsCore", "APNsAuth", "LiveActivity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            // The dashboard's page, style sheet, modules and icon, compiled into the binary (as the console's).
            resources: [.embedInCode("Dashboard/Web")],
            swiftSettings: swiftSettings
        ),
        // The system's SQLite C library (libsqlite3; Debian: libsqlite3-dev to build, libsqlite3-0 to run).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Durable storage of the provider server: activities, tokens, outbox, deliveries, budgets, API keys.
        .target(
            name: "PushStore",
            dependencies: [
                "APNsCore", "LiveActivity", "CSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // Writes a text file's contents into a Swift constant (the contract, embedded by the plugin below).
        .executableTarget(name: "EmbedText", swiftSettings: swiftSettings),
        // The API's contract: openapi.json (embedded by the plugin) and the validator that reads every
        // request rule from it, for the server and for the Swift client.
        .target(
            name: "APIContract",
            dependencies: ["LiveActivity"],
            exclude: ["openapi.json"],  // embedded by the plugin
            swiftSettings: swiftSettings,
            plugins: ["EmbedOpenAPIDocument"]
        ),
        // Embeds openapi.json, the API's one contract, into APIContract.
        .plugin(name: "EmbedOpenAPIDocument", capability: .buildTool(), dependencies: ["EmbedText"]),
        // The provider server of `livepush serve`: HTTP API, outbox workers, priority policy, lifecycle.
        .target(
            name: "LivePushServer",
            dependencies: [
                "APIContract",
                "APNsCore", "APNsAuth", "LiveActivity", "APNsClient", "PushStore",
                // The answers are the contract's types, generated from openapi.json (not declared again here);
                // the generated client is not compiled into the server.
                "LivePushAPITypes",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOThreadPool, for the webhook's resolver.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Webhook POSTs, connected to the address the target policy checked (dnsOverride).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                // `livepush serve`'s command line, made from the settings' declarations (Settings/ServeOptions).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The console's page, style sheet and modules, compiled into the binary (no bundle to ship beside it).
            resources: [.embedInCode("Console/Web")],
            swiftSettings: swiftSettings
        ),
        // Scoped test helpers for our tests and our users': a simulator, a server, webhooks, each stopped
        // on every path.
        .target(
            name: "LivePushTesting",
            dependencies: [
                "APNsCore", "APNsAuth", "LiveActivity", "APNsClient", "APNsSimulator", "LivePushServer", "PushStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // TestServer.client(_:): the generated client of the server under test.
                "LivePushAPIClient",
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Emoji Rangers demo of `livepush demo`: the adventure engine and the in-process orchestration.
        .target(
            name: "EmojiRangers",
            dependencies: [
                "APNsCore", "APNsAuth", "LiveActivity", "APNsClient", "APNsSimulator", "LivePushServer", "PushStore",
                // The backend of the demo talks to the server through the generated client; each player's app
                // runs LivePushKit, fed by the simulated adapter.
                "LivePushAPIClient", "LivePushKit", "LivePushKitSimulation",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "LivePushCLI",
            dependencies: [
                "APNsCore", "APNsAuth", "LiveActivity", "APNsClient", "APNsSimulator", "LivePushServer", "PushStore",
                "EmojiRangers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // NIOSingletons: `serve` runs its tasks on the event loops.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The contract's types (Types.swift), generated from APIContract/openapi.json by scripts/generate-api-client.sh
        // (swift-openapi-generator) and committed: no generator in the build. The server, the client and
        // LivePushKit share them.
        .target(
            name: "LivePushAPITypes",
            // LiveActivity: a free-form object of the contract (a content-state, attributes) is its JSONValue.
            dependencies: ["LiveActivity", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: swiftSettings
        ),
        // The Swift client of the HTTP API (Client.swift), generated the same way over LivePushAPITypes, which it
        // re-exports, plus its middlewares.
        .target(
            name: "LivePushAPIClient",
            dependencies: [
                "LivePushAPITypes",
                // RequestContractCheck: the same contract and validator as the server, before a request is sent.
                "APIContract",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            exclude: ["openapi-generator-config.yaml"],
            swiftSettings: swiftSettings
        ),
        // The app's half for iOS apps: journal, retries and credentials on the generated client, plus the
        // ActivityKit adapter (compiled on iOS only). Nothing of NIO, Hummingbird or the stores.
        .target(
            name: "LivePushKit",
            dependencies: [
                "LivePushAPITypes", "LivePushAPIClient", "LiveActivity",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // LivePushKit's adapter over the simulator's iPhones: the calls LivePush.track makes, from a simulated
        // device's events. Its own target, not LivePushTesting: the demo (inside `livepush`) uses it, and
        // LivePushTesting links swift-testing, which the statically linked release binary cannot load.
        .target(
            name: "LivePushKitSimulation",
            dependencies: ["LivePushKit", "APNsSimulator", "LiveActivity", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // A minimal interface that mirrors the documented ActivityKit and UIKit signatures LivePushKit's adapter
        // calls, so that Linux CI type-checks (and drives) the adapter. Test-only: never a product, never shipped.
        .target(name: "ActivityKit", path: "Tests/ActivityKitInterface/ActivityKit", swiftSettings: swiftSettings),
        .target(name: "UIKit", path: "Tests/ActivityKitInterface/UIKit", swiftSettings: swiftSettings),
        .testTarget(
            name: "LivePushKitTests",
            dependencies: [
                "LivePushKit", "LivePushKitSimulation", "LivePushAPIClient", "LivePushTesting", "APNsCore", "APNsSimulator", "LiveActivity",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The ActivityKit adapter's source (a link to Sources/LivePushKit/ActivityKit/) compiled a second time
        // against the interface module above, on Linux only.
        .testTarget(
            name: "LivePushKitAdapterTests",
            dependencies: [
                "LivePushKit", "LiveActivity",
                .target(name: "ActivityKit", condition: .when(platforms: [.linux])),
                .target(name: "UIKit", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings + [.define("LIVEPUSH_ACTIVITYKIT_INTERFACE", .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "LivePushKitSimulationTests",
            dependencies: ["LivePushKitSimulation", "LivePushKit", "LivePushTesting", "APNsSimulator", "LiveActivity"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EmojiRangersTests",
            dependencies: ["EmojiRangers", "APNsSimulator", "APNsCore", "LiveActivity", "LivePushTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PushStoreTests",
            dependencies: ["PushStore", "APNsCore", "LiveActivity", "LivePushTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LivePushServerTests",
            dependencies: [
                "LivePushServer", "PushStore", "APNsCore", "APNsAuth", "APNsClient", "LiveActivity", "APNsSimulator", "LivePushTesting",
                "LivePushAPITypes", "LivePushAPIClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The HTTP listener's handlers on a channel whose clock the test moves.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // The webhook tests check LivePush-Signature as a receiver would, with their own HMAC.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The generated client against a real `livepush serve` over URLSession.
        .testTarget(
            name: "LivePushAPIClientTests",
            dependencies: [
                "LivePushAPIClient", "LivePushTesting",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "APNsCoreTests", dependencies: ["APNsCore"], swiftSettings: swiftSettings),
        .testTarget(name: "APIContractTests", dependencies: ["APIContract", "LiveActivity"], swiftSettings: swiftSettings),
        .testTarget(
            name: "LivePushTestingTests",
            dependencies: [
                "LivePushTesting", "APNsClient", "APNsCore",
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsAuthTests",
            dependencies: [
                "APNsAuth", "APNsCore", "LivePushTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LiveActivityTests", dependencies: ["LiveActivity", "APNsCore"],
            exclude: ["Fixtures"],  // the payload vectors, read from the source tree by path
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsClientTests",
            dependencies: [
                "APNsClient", "APNsCore", "APNsAuth", "LiveActivity", "APNsSimulator", "LivePushTesting",
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "APNsSimulatorTests",
            dependencies: [
                "APNsSimulator", "APNsCore", "APNsAuth", "LiveActivity", "LivePushTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // The livepush command line: flag parsing, validation messages, and commands run in-process.
        .testTarget(
            name: "LivePushCLITests",
            dependencies: [
                "LivePushCLI", "APNsSimulator", "APNsClient", "APNsCore", "APNsAuth", "LivePushTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
