#!/usr/bin/env bash
# Proves LivePushKit's promise to apps: a package outside this repository that depends on the LivePushKit
# product builds without compiling NIO, Hummingbird, PostgresNIO or SQLite. Makes such a package in a
# temporary folder (a path dependency on this clone), builds it, and reads what was compiled from its build
# folder: the modules in .build/debug/Modules. Fails when a forbidden module is among them.
# About 2 minutes on 2 cores (resolution fetches every dependency of this package; only LivePushKit's
# graph is compiled). Usage: scripts/check-kit-graph.sh [KEEP_DIR]  (KEEP_DIR keeps the consumer there)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
consumer="${1:-$(mktemp -d /tmp/livepush-kit-consumer.XXXXXX)}"
[ -n "${1:-}" ] || trap 'rm -rf "$consumer"' EXIT
mkdir -p "$consumer/Sources/KitConsumer"
cat > "$consumer/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "KitConsumer",
    platforms: [.macOS(.v15), .iOS(.v16)],
    dependencies: [.package(name: "LivePush", path: "$repo")],
    targets: [
        .executableTarget(
            name: "KitConsumer", dependencies: [.product(name: "LivePushKit", package: "LivePush")],
            swiftSettings: [.swiftLanguageMode(.v6)])
    ]
)
SWIFT
cat > "$consumer/Sources/KitConsumer/main.swift" <<'SWIFT'
import Foundation
import LivePushKit

let reporter = try LivePushReporter(
    LivePushConfiguration(
        serverURL: URL(string: "https://push.example.com")!, bundleID: "com.example.app", environment: .sandbox,
        journalDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("kit-consumer-\(getpid())"),
        credential: .userToken { _ in "token" }))
await reporter.activityToken(
    PushToken(hex: String(repeating: "ab", count: 32))!, activityID: "a1", attributesType: "AdventureAttributes", groups: [])
print("LivePushKit linked; pending reports: \(await reporter.pendingCount)")
SWIFT
(cd "$consumer" && swift build 2>&1 | tail -3 && swift run -q KitConsumer)
modules=$(ls "$consumer/.build/debug/Modules" | sed -n 's/\.swiftmodule$//p' | sort | tr '\n' ' ')
echo "== fetched: $(ls "$consumer/.build/checkouts" | wc -l) packages; compiled modules: $modules"
forbidden=$(echo "$modules" | tr ' ' '\n' | grep -E '^(_?NIO|CNIO|Hummingbird|PostgresNIO|SQLiteNIO|VaporCSQLite|CSQLite|AsyncHTTPClient)' || true)
if [ -n "$forbidden" ]; then
    echo "== LivePushKit's graph compiled server modules: $(echo $forbidden)" >&2
    exit 1
fi
echo "== LivePushKit: no NIO, Hummingbird, PostgresNIO or SQLite compiled"
