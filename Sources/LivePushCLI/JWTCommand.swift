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
        let now = Date()
        let date = issuedAt.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? now
        if let issuedAt, let warning = Self.futureWarning(issuedAt: issuedAt, now: now) { TerminalOutput.error(warning) }
        print(resolved.makeToken(issuedAt: date).jwt)
    }

    /// The warning for an `iat` more than a minute ahead of this machine's clock (the token is still
    /// printed): the simulator refuses such a token, and Apple documents no tolerance for one.
    static func futureWarning(issuedAt: Int64, now: Date) -> String? {
        let ahead = TimeInterval(issuedAt) - now.timeIntervalSince1970
        guard ahead > 60 else { return nil }
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(issuedAt)))
        let days = ahead / 86_400
        let distance = days >= 2 ? "\(Int(days.rounded())) days" : "\(Int((ahead / 60).rounded())) minutes"
        var warning =
            "warning: --issued-at \(issuedAt) is \(date), \(distance) ahead of this machine's clock; a token issued in the future "
            + "is refused (the simulator answers 403 InvalidProviderToken beyond 60 s; Apple does not document a tolerance). "
            + "Leave --issued-at out to use now (\(Int64(now.timeIntervalSince1970)))"
        if issuedAt > 100_000_000_000 { warning += "; it looks like milliseconds: give seconds" }
        return warning
    }
}
