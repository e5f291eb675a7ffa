import Foundation
import LivePushTesting
import Testing

@testable import LivePushKit

@Suite struct JournalFileTests {
    @Test func whatIsWrittenIsReadBack() async throws {
        try await withTemporaryDirectory { directory in
            let file = JournalFile(directory: directory)
            #expect(try file.read() == nil)
            var state = JournalState(deviceID: "device-1")
            _ = state.record(token: PushToken(hex: "abcd")!, activityID: "x", attributesType: "T", groups: ["g"])
            _ = state.record(end: .ended(dismissalDate: Date(timeIntervalSince1970: 1_800_000_000)), activityID: "x")
            state.installation = StoredInstallation(installationID: "inst_1", token: "t", expiresAt: Date(timeIntervalSince1970: 1_900_000_000))
            try file.write(state)
            #expect(try file.read() == state)
        }
    }

    @Test func aFileThatIsNotAJournalIsRefusedByPath() async throws {
        try await withTemporaryDirectory { directory in
            let file = JournalFile(directory: directory)
            try Data("{\"nope\":1}".utf8).write(to: file.url)
            #expect {
                try file.read()
            } throws: { error in
                guard case .journal(let path, let problem) = error as? LivePushKitError else { return false }
                return path == file.url.path && problem.hasPrefix("is not a LivePushKit journal")
            }
        }
    }

    @Test func settingsTheServerWouldRefuseAreNamed() async throws {
        try await withTemporaryDirectory { directory in
            var configuration = LivePushConfiguration(
                serverURL: URL(string: "ftp://push.example.com")!, bundleID: "com.example.app", environment: .sandbox,
                journalDirectory: directory, credential: .installation(appKey: "k"))
            #expect(
                throws: LivePushKitError.configuration(field: "serverURL", message: "an http or https URL with a host, like https://push.example.com")
            ) {
                try LivePushReporter(configuration)
            }
            configuration.serverURL = URL(string: "https://push.example.com")!
            configuration.bundleID = ""
            #expect(throws: LivePushKitError.configuration(field: "bundleID", message: "the app's bundle id, 1 to 255 characters")) {
                try LivePushReporter(configuration)
            }
        }
    }
}
