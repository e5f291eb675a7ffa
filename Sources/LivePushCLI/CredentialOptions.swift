import APNsAuth
import ArgumentParser
import Foundation

/// The `.p8` key, Key ID and Team ID that sign provider tokens.
typealias ResolvedCredentials = ProviderCredentials

/// `--key-file`, `--key-id`, `--team-id`, each falling back to an environment variable.
struct CredentialOptions: ParsableArguments {
    static let keyFileVariable = "LIVEPUSH_KEY_FILE"
    static let keyIDVariable = "LIVEPUSH_KEY_ID"
    static let teamIDVariable = "LIVEPUSH_TEAM_ID"

    @Option(name: .customLong("key-file"), help: "The .p8 provider key (PKCS#8 PEM). Default: $LIVEPUSH_KEY_FILE.")
    var keyFile: String?
    @Option(name: .customLong("key-id"), help: "The key's Key ID, 10 characters A-Z 0-9 (the JWT kid). Default: $LIVEPUSH_KEY_ID.")
    var keyID: String?
    @Option(name: .customLong("team-id"), help: "The Team ID, 10 characters A-Z 0-9 (the JWT iss). Default: $LIVEPUSH_TEAM_ID.")
    var teamID: String?

    /// Checks the ids given as flags while parsing (so the usage shown is the command's); ids from the
    /// environment are checked by `resolve`.
    func validate() throws {
        if let keyID, let problem = AppleID.problem(keyID, kind: .keyID, source: "--key-id") { throw ValidationError(problem) }
        if let teamID, let problem = AppleID.problem(teamID, kind: .teamID, source: "--team-id") { throw ValidationError(problem) }
    }

    /// True when any of the three is given, as a flag or in the environment.
    var isProvided: Bool { isProvided(environment: ProcessInfo.processInfo.environment) }

    func isProvided(environment: [String: String]) -> Bool {
        keyFile != nil || keyID != nil || teamID != nil
            || environment[Self.keyFileVariable] != nil || environment[Self.keyIDVariable] != nil
            || environment[Self.teamIDVariable] != nil
    }

    /// Validates the ids (Apple's form: `AppleID`) and loads the key. Errors name the flag or the
    /// environment variable the value came from.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ResolvedCredentials {
        let file = try value(keyFile, flag: "--key-file", variable: Self.keyFileVariable, what: "the .p8 key file", environment: environment)
        let kid = try value(keyID, flag: "--key-id", variable: Self.keyIDVariable, what: "the Key ID", environment: environment)
        let team = try value(teamID, flag: "--team-id", variable: Self.teamIDVariable, what: "the Team ID", environment: environment)
        return try Self.resolve(keyFile: file, keyID: kid, teamID: team)
    }

    /// Validates the ids and loads the key, each given with the source a message names (a flag,
    /// `$VARIABLE`, a config file's key).
    static func resolve(
        keyFile file: (value: String, source: String), keyID kid: (value: String, source: String),
        teamID team: (value: String, source: String)
    ) throws -> ResolvedCredentials {
        if let problem = AppleID.problem(kid.value, kind: .keyID, source: kid.source) { throw ValidationError(problem) }
        if let problem = AppleID.problem(team.value, kind: .teamID, source: team.source) { throw ValidationError(problem) }
        do {
            return try ProviderCredentials(keyFile: file.value, keyID: kid.value, teamID: team.value)
        } catch {
            switch error {
            case .empty(.keyID), .containsWhitespace(.keyID):
                throw ValidationError("\(kid.source): \(error.description)")
            case .empty(.teamID), .containsWhitespace(.teamID):
                throw ValidationError("\(team.source): \(error.description)")
            case .key:
                throw CredentialError(message: "\(file.source): \(error.description)")
            }
        }
    }

    private func value(
        _ flagValue: String?, flag: String, variable: String, what: String, environment: [String: String]
    ) throws -> (value: String, source: String) {
        if let flagValue { return (flagValue, flag) }
        if let environmentValue = environment[variable] { return (environmentValue, "$\(variable)") }
        throw ValidationError("missing \(what): pass \(flag) or set the environment variable \(variable)")
    }
}

/// A credential problem found after parsing (an unusable key file): reported without the usage text.
struct CredentialError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
