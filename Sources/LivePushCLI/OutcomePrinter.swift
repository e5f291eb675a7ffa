import APNsClient
import APNsCore
import ArgumentParser
import Foundation

/// Prints the final outcome of one push and exits non-zero when it was not accepted.
enum OutcomePrinter {
    /// - Parameter remedy: what to do about a refusal, when the caller knows better than the reason's
    ///   generic advice.
    static func report(_ outcome: APNsDeliveryOutcome, remedy: String? = nil) throws {
        switch outcome.result {
        case .success(let response) where response.isSuccess:
            for line in acceptedLines(response, attempts: outcome.attempts) { print(line) }
        case .success(let response):
            let reason = response.reason ?? .other("none")
            print("status: \(response.status)")
            print("reason: \(reason.rawValue)")
            if let apnsID = response.apnsID { print("apns-id: \(apnsID)") }
            if let timestamp = response.timestamp {
                print("token invalid since: \(ISO8601DateFormatter().string(from: timestamp))")
            }
            if outcome.attempts > 1 { print("attempts: \(outcome.attempts)") }
            TerminalOutput.error("what to do: \(remedy ?? reason.remedy)")
            throw ExitCode(1)
        case .failure(let error):
            TerminalOutput.error("error: \(error.description)")
            if let remedy { TerminalOutput.error("what to do: \(remedy)") }
            if outcome.attempts > 1 { TerminalOutput.error("attempts: \(outcome.attempts)") }
            throw ExitCode(2)
        }
    }

    /// The client `make` returns; one that cannot be made for a TLS reason (a `--ca-file` that is not
    /// there, a certificate that does not load) ends as a failed TLS handshake does: `error: …`, exit 2.
    static func client(_ make: () throws -> APNsClient) throws -> APNsClient {
        do {
            return try make()
        } catch let error as APNsClientError {
            TerminalOutput.error("error: \(error.description)")
            throw ExitCode(2)
        }
    }

    /// What an accepted push prints: its status, `apns-id`, the `apns-unique-id` when APNs returned one (in
    /// the development environment only; Apple's Push Notifications Console finds the delivery by it), and
    /// the attempts when there was more than one.
    static func acceptedLines(_ response: APNsResponse, attempts: Int) -> [String] {
        var lines = ["status: 200", "apns-id: \(response.apnsID ?? "-")"]
        if let unique = response.apnsUniqueID { lines.append("apns-unique-id: \(unique)") }
        if attempts > 1 { lines.append("attempts: \(attempts)") }
        return lines
    }
}
