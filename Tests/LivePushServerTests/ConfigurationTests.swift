import Foundation
import LivePushServer
import LivePushTesting
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

    @Test func configFileIsReadWithDurationsAndUnknownKeysAreRefused() async throws {
        try await withTemporaryDirectory(prefix: "livepush-config") { directory in
            let good = directory.appendingPathComponent("good.json")
            try Data(
                #"{"port":9090,"workers":3,"maxActiveDuration":"2h","forgetAfter":120,"environment":"sandbox","webhookUrl":"https://example.com/hook"}"#
                    .utf8
            ).write(to: good)
            let file = try await ServeSettings.read(
                arguments: ["--config", good.path],
                environment: ["LIVEPUSH_WEBHOOK_SECRET": TestServer.webhookSecret])
            #expect(file.server.port == 9090 && file.server.workerCount == 3 && file.environment == .sandbox)
            #expect(file.server.maximumActiveDuration == 7200 && file.server.forgetAfter == 120)

            let typo = directory.appendingPathComponent("typo.json")
            try Data(#"{"prot":9090}"#.utf8).write(to: typo)
            await #expect(throws: ServerConfigurationError.self) {
                try await ServeSettings.read(arguments: ["--config", typo.path], environment: [:])
            }
            do {
                _ = try await ServeSettings.read(arguments: ["--config", typo.path], environment: [:])
            } catch let error as ServerConfigurationError {
                #expect(error.rule.contains("unknown key 'prot'"))
            }
            let badDuration = directory.appendingPathComponent("duration.json")
            try Data(#"{"maxActiveDuration":"forever","environment":"sandbox"}"#.utf8).write(to: badDuration)
            await #expect(throws: ServerConfigurationError.self) {
                try await ServeSettings.read(arguments: ["--config", badDuration.path], environment: [:])
            }
            await #expect(throws: ServerConfigurationError.self) {
                try await ServeSettings.read(arguments: ["--config", directory.appendingPathComponent("missing.json").path], environment: [:])
            }
        }
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
