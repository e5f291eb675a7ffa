import ArgumentParser
import LivePushServer
import Testing

@testable import LivePushCLI

/// `livepush serve`: its help comes from the settings' declarations, its flags reach the settings reader.
@Suite struct ServeCommandTests {
    @Test func helpShowsEverySettingWithItsVariableKeyAndDefault() {
        let help = ServeCommand.helpMessage(columns: 80)
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in ServeSetting.all {
            // argument-parser's layout: `--port <N>`, a switch's value optional (`--name [<true|false>]`).
            let value = setting.placeholder == "true|false" ? "[<true|false>]" : "<\(setting.placeholder)>"
            #expect(words.contains("\(setting.flag) \(value) \(setting.helpDescription)"), "\(setting.key)")
        }
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func everyFlagReachesTheSettings() async throws {
        let command = try ServeCommand.parse([
            "--environment", "sandbox", "--port=9092", "--max-active-duration", "2h", "--app-key", "-dash-led-key-0123",
            "--metrics-operator",
        ])
        #expect(command.settings.given["port"] == "9092" && command.settings.given["appKey"] == "-dash-led-key-0123")
        let settings = try await ServeCommand.read(command.settings, environment: [:])
        #expect(settings.server.port == 9092 && settings.server.maximumActiveDuration == 7200)
        #expect(settings.server.appKeys == ["-dash-led-key-0123"] && settings.server.metricsOperator)
    }

    @Test func aWrongFlagIsAUsageErrorAndABadValueIsNot() async throws {
        do {
            _ = try ServeCommand.parse(["--prot", "1"])
            Issue.record("--prot was accepted")
        } catch {
            #expect(ServeCommand.exitCode(for: error) == .validationFailure)
            #expect(ServeCommand.message(for: error) == "Unknown option '--prot'. Did you mean '--port'?")
        }
        let command = try ServeCommand.parse(["--port", "x"])
        await #expect(throws: CommandFailure.self) { try await ServeCommand.read(command.settings, environment: [:]) }
    }

    @Test func credentialsNameTheirSource() throws {
        var settings = ServeSettings()
        settings.keyFile = "/nonexistent.p8"
        settings.keyID = "ABC123DEFG"
        settings.teamID = "team1"
        settings.origins["teamId"] = .file(key: "teamId", path: "/etc/livepush.json")
        #expect {
            try ServeCommand.credentials(settings)
        } throws: { error in
            (error as? ValidationError)?.message
                == "'teamId' in /etc/livepush.json: 'team1' has lowercase letters; Apple's Team IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)"
        }
        settings.teamID = nil
        #expect {
            try ServeCommand.credentials(settings)
        } throws: { error in
            (error as? ValidationError)?.message
                == "missing the Team ID: pass --team-id or set the environment variable LIVEPUSH_TEAM_ID (or teamId in the --config file)"
        }
    }
}
