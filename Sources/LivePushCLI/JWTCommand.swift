import APNsAuth
import ArgumentParser
import Foundation

struct JWTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jwt",
        abstract: "Print a provider token (ES256 JWT) for the authorization header.",
        discussion: """
            Prints only the token, so it can be captured: TOKEN=$(livepush jwt ...). \
            APNs rejects a token whose iat is over an hour old and one replaced more often than every 20 minutes.
            """
    )

    @OptionGroup var credentials: CredentialOptions
    @Option(name: .customLong("issued-at"), help: "The iat claim, Unix seconds. Default: now.")
    var issuedAt: Int64?

    func validate() throws {
        if let issuedAt, issuedAt < 0 {
            throw ValidationError("--issued-at \(issuedAt) is negative; give Unix seconds (e.g. \(Int64(Date().timeIntervalSince1970)))")
        }
    }

    func run() async throws {
        let resolved = try credentials.resolve()
        let date = issuedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date()
        print(resolved.makeToken(issuedAt: date).jwt)
    }
}
