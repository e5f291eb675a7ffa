import ArgumentParser
import Testing

@testable import LivePushCLI

/// The credential flags' messages: Apple's id rules, the source of a bad value, and the usage shown.
@Suite struct CredentialMessageTests {
    @Test func aShortTeamIDIsRefusedNamingTheFlagAndTheRule() {
        #expect(
            parseMessage(JWTCommand.self, ["--team-id", "TEAM"])
                == "--team-id: 'TEAM' is 4 characters; Apple's Team IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)")
    }

    @Test func aLowercaseKeyIDIsRefusedWithTheUppercaseSpelling() {
        let message = parseMessage(
            SendCommand.self,
            [
                "--key-id", "abc123defg", "--token", "abcd", "--bundle-id", "com.example.app", "--content-state", "{}",
            ])
        #expect(
            message
                == "--key-id: 'abc123defg' has lowercase letters; Apple's Key IDs are exactly 10 uppercase letters or digits (A-Z, 0-9), e.g. 'ABC123DEFG'"
        )
    }

    @Test func otherCharactersAndLengthsAreNamed() {
        #expect(
            AppleID.problem("ABC-123DEF", kind: .keyID, source: "--key-id")
                == "--key-id: 'ABC-123DEF' contains '-'; Apple's Key IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)")
        #expect(AppleID.problem("ABC123DEFGH", kind: .keyID, source: "--key-id")?.contains("is 11 characters") == true)
        #expect(AppleID.problem("ABC 23DEFG", kind: .teamID, source: "--team-id")?.contains("contains whitespace") == true)
    }

    @Test func theIDsOfTheReadmeAndTheBenchmarksAreValid() {
        for id in ["DEVKEY0001", "DEVTEAM001", "BENCHKEY01", "BENCHTEAM1", "ABC123DEFG", "DEF123GHIJ"] {
            #expect(AppleID.problem(id, kind: .keyID, source: "--key-id") == nil, "\(id)")
        }
    }

    @Test func anIDFromTheEnvironmentNamesTheVariable() throws {
        let options = try CredentialOptions.parse([])
        let environment = ["LIVEPUSH_KEY_FILE": "/nonexistent.p8", "LIVEPUSH_KEY_ID": "DEVKEY0001", "LIVEPUSH_TEAM_ID": "team1"]
        #expect {
            try options.resolve(environment: environment)
        } throws: { error in
            (error as? ValidationError)?.message
                == "$LIVEPUSH_TEAM_ID: 'team1' has lowercase letters; Apple's Team IDs are exactly 10 uppercase letters or digits (A-Z, 0-9)"
        }
    }

    @Test func aMissingCredentialShowsTheUsageOfTheCommandThatNeedsIt() throws {
        let options = try CredentialOptions.parse([])
        var missing: ValidationError?
        do {
            _ = try options.resolve(environment: [:])
        } catch let error as ValidationError {
            missing = error
        }
        let error = try #require(missing)
        let message = LivePush.failureMessage(error, command: SendCommand.self)
        #expect(message.hasPrefix("Error: missing the .p8 key file: pass --key-file or set the environment variable LIVEPUSH_KEY_FILE\n"))
        #expect(message.contains("Usage: livepush send "))
        #expect(message.hasSuffix("See 'livepush send --help' for more information."))
        #expect(!message.contains("<subcommand>"))
        let nested = LivePush.failureMessage(ValidationError("x"), command: SimulatorCertificateCommand.self)
        #expect(nested.contains("Usage: livepush simulator certificate --bundle-id <bundle-id>"))
        #expect(nested.hasSuffix("See 'livepush simulator certificate --help' for more information."))
    }
}
