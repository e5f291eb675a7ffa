import Foundation
import LivePushServer
import Testing

@Suite struct ConfigurationTests {
    @Test func durationsTakeSecondsOrAUnit() {
        #expect(DurationText.seconds("90") == 90)
        #expect(DurationText.seconds("0.5") == 0.5)
        #expect(DurationText.seconds("30m") == 1800)
        #expect(DurationText.seconds("8h") == 28_800)
        #expect(DurationText.seconds("1d") == 86_400)
        #expect(DurationText.seconds("-5m") == nil)
        #expect(DurationText.seconds("soon") == nil)
        #expect(DurationText.seconds("") == nil)
    }

    @Test func configFileIsReadWithDurationsAndUnknownKeysAreRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.json")
        try Data(#"{"port":9090,"workers":3,"maxActiveDuration":"2h","forgetAfter":120,"environment":"sandbox","webhookUrl":"https://example.com/hook"}"#.utf8).write(to: good)
        let file = try ServerConfigurationFile.load(path: good.path)
        #expect(file.port == 9090 && file.workers == 3 && file.environment == "sandbox")
        #expect(file.maxActiveDuration?.seconds == 7200 && file.forgetAfter?.seconds == 120)

        let typo = directory.appendingPathComponent("typo.json")
        try Data(#"{"prot":9090}"#.utf8).write(to: typo)
        #expect(throws: ServerConfigurationError.self) { try ServerConfigurationFile.load(path: typo.path) }
        do {
            _ = try ServerConfigurationFile.load(path: typo.path)
        } catch {
            #expect(error.rule.contains("unknown key 'prot'"))
        }
        let badDuration = directory.appendingPathComponent("duration.json")
        try Data(#"{"maxActiveDuration":"forever"}"#.utf8).write(to: badDuration)
        #expect(throws: ServerConfigurationError.self) { try ServerConfigurationFile.load(path: badDuration.path) }
        #expect(throws: ServerConfigurationError.self) { try ServerConfigurationFile.load(path: directory.appendingPathComponent("missing.json").path) }
    }

    @Test func configurationValuesAreValidated() {
        var configuration = ServerConfiguration()
        #expect(throws: Never.self) { try configuration.validate() }
        configuration.port = 70_000
        #expect(throws: ServerConfigurationError(setting: "port", rule: "must be 0 to 65535")) { try configuration.validate() }
        configuration = ServerConfiguration()
        configuration.appKeys = ["short"]
        #expect(throws: ServerConfigurationError.self) { try configuration.validate() }
        configuration = ServerConfiguration()
        configuration.webhookURL = URL(string: "ftp://example.com")
        #expect(throws: ServerConfigurationError.self) { try configuration.validate() }
    }
}
