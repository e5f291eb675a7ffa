import APNsCore
import ArgumentParser
import Foundation
import Logging

/// `--timeout` and `--verbose`: the deadline of each request the command's APNs client sends, and
/// whether its connection events are shown.
struct ClientOptions: ParsableArguments {
    @Option(help: "The deadline of one request, in seconds.")
    var timeout: Double = 30
    @Flag(name: .long, help: "Log the client's connection events to stderr.")
    var verbose = false

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    /// `--timeout` as the client's request timeout.
    var requestTimeout: Duration { .milliseconds(Int(timeout * 1000)) }

    /// The client's logger: its connection events on stderr with `--verbose`, only errors otherwise.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = verbose ? .debug : .error
        return logger
    }

    /// `--request-id` (broadcasts and channel requests): apns-request-id, a lowercase UUID; nil lets APNs
    /// make one.
    static func requestID(_ text: String?) throws -> UUID? {
        guard let text else { return nil }
        guard let parsed = APNsID.parse(text, allowUppercase: false) else {
            throw ValidationError("--request-id '\(text)' is not a lowercase UUID; expected 8-4-4-4-12 hex digits, e.g. \(UUID().lowercased)")
        }
        return parsed
    }
}
