import APNsAuth
import Foundation
import LivePushTesting
import Testing

@Suite("Writing .p8 files (`livepush keygen`)", .temporaryDirectory)
struct KeyFileWriterTests {
    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func writesAReadableP8OnlyTheOwnerCanRead() throws {
        let key = APNsSigningKey.generate()
        let path = Fixtures.temporaryPath("AuthKey.p8")
        try key.write(toFile: path, overwrite: false)
        #expect(try mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == key.pemRepresentation)
        #expect(try APNsSigningKey(contentsOfFile: path).privateKey.rawRepresentation == key.privateKey.rawRepresentation)
    }

    @Test func refusesToOverwriteWithoutPermission() throws {
        let path = Fixtures.temporaryPath("AuthKey.p8")
        let first = APNsSigningKey.generate()
        try first.write(toFile: path, overwrite: false)
        #expect(throws: KeyFileWriteError.fileExists(path: path)) {
            try APNsSigningKey.generate().write(toFile: path, overwrite: false)
        }
        #expect(try APNsSigningKey(contentsOfFile: path).privateKey.rawRepresentation == first.privateKey.rawRepresentation)
        #expect(KeyFileWriteError.fileExists(path: path).description.contains("--force"))
    }

    @Test func overwriteReplacesTheFileAndTightensItsMode() throws {
        let path = Fixtures.temporaryPath("AuthKey.p8")
        try "old".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let key = APNsSigningKey.generate()
        try key.write(toFile: path, overwrite: true)
        #expect(try mode(path) == 0o600)
        #expect(try APNsSigningKey(contentsOfFile: path).privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        let directory = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["AuthKey.p8"])
    }

    @Test func missingDirectoryIsASystemError() {
        let path = Fixtures.temporaryPath("no-such-dir") + "/AuthKey.p8"
        do {
            try APNsSigningKey.generate().write(toFile: path, overwrite: false)
            Issue.record("writing into a missing directory succeeded")
        } catch {
            guard case .systemError(let reported, _, _) = error else {
                Issue.record("expected systemError, got \(error)")
                return
            }
            #expect(reported == path)
        }
    }
}
