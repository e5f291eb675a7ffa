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

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aNewDatabaseAndItsWALAreOwnerOnly() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = try await SQLitePushStore(path: path)
        _ = try await store.register(Fixture.registration("a"))
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try Self.mode(file)
            #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
        }
        await store.close()
    }

    @Test func looserModesAreTightenedOnOpen() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let first = try await SQLitePushStore(path: path)
        _ = try await first.register(Fixture.registration("a"))
        await first.close()
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        let reopened = try await SQLitePushStore(path: path)
        #expect(try await reopened.activity(id: "a") != nil)
        for file in [path, path + "-wal", path + "-shm"] {
            let mode = try Self.mode(file)
            #expect(mode == 0o600, "\(file): \(String(mode, radix: 8))")
        }
        await reopened.close()
    }
}
