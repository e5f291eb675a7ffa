import Foundation
import Testing

@testable import PushStore

/// The SQLite file holds the app-token signing secret in clear: it and its WAL and shared-memory files are
/// readable by the server's user only.
@Suite struct SQLiteFileModeTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func aNewDatabaseAndItsWALAreOwnerOnly() async throws {
        try await withDatabase(.sqlite) { harness in
            let path = harness.location
            try await withReopened(harness) { store in
                _ = try await store.register(Fixture.registration("a"))
                for file in [path, path + "-wal", path + "-shm"] {
                    let mode = try Self.mode(file)
                    #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
                }
            }
        }
    }

    @Test func looserModesAreTightenedOnOpen() async throws {
        try await withDatabase(.sqlite) { harness in
            let path = harness.location
            try await withReopened(harness) { first in
                _ = try await first.register(Fixture.registration("a"))
            }
            for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
            }
            try await withReopened(harness) { reopened in
                #expect(try await reopened.activity(id: "a") != nil)
                for file in [path, path + "-wal", path + "-shm"] {
                    let mode = try Self.mode(file)
                    #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
                }
            }
        }
    }
}
