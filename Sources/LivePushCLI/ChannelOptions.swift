import APNsClient
import APNsCore
import ArgumentParser
import Foundation

/// What every `livepush channels` subcommand takes: the app, the management endpoint, credentials.
struct ChannelOptions: ParsableArguments {
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var certificate: CertificateOptions
    @Option(name: .customLong("bundle-id"), help: "The app's plain bundle id (no .push-type.liveactivity suffix).")
    var bundleID: String
    @Option(
        help:
            "Apple's environment: sandbox (api-manage-broadcast.sandbox.push.apple.com:2195) or production (api-manage-broadcast.push.apple.com:2196)."
    )
    var environment: APNsEnvironment?
    @Option(help: "Any channel management endpoint instead, e.g. https://127.0.0.1:2195 for `livepush simulator`.")
    var url: String?
    @Option(name: .customLong("ca-file"), help: "Extra CA certificate (PEM) to trust, e.g. the simulator's ca.pem.")
    var caFile: String?
    @Option(name: .customLong("request-id"), help: "apns-request-id, a lowercase UUID echoed back (default: APNs generates one).")
    var requestID: String?
    @OptionGroup var clientOptions: ClientOptions

    func validate() throws {
        do {
            try APNsBroadcastRequest.checkBundleID(bundleID)
        } catch {
            throw ValidationError("--bundle-id: \(error.description)")
        }
        try certificate.validate(against: credentials)
        _ = try requestUUID()
    }

    /// The management endpoint: Apple's for `--environment`, or `--url`.
    func endpoint() throws -> APNsEndpoint {
        try EndpointChoice.endpoint(
            environment: environment, url: url, apple: { APNsEndpoint.channelManagement($0) },
            neither:
                "say where the channels are: --environment sandbox|production, or --url https://HOST:PORT (the local simulator's management port is https://127.0.0.1:2195)"
        )
    }

    /// `--request-id` as a UUID (checked by `validate()`).
    func requestUUID() throws -> UUID? { try ClientOptions.requestID(requestID) }

    static func channelID(_ text: String) throws -> APNsChannelID {
        do {
            return try APNsChannelID(text)
        } catch {
            throw ValidationError("--channel: \(error.description)")
        }
    }

    /// Runs `body` with a client for the management endpoint and reports a refusal or failure.
    func withClient(_ body: (APNsClient) async throws(APNsBroadcastError) -> Void) async throws {
        let endpoint = try endpoint()
        let client = try ChannelClientFactory.make(
            endpoint: endpoint, channelEndpoint: endpoint, caFile: caFile, credentials: credentials,
            certificate: certificate, options: clientOptions
        )
        do {
            try await body(client)
            await client.shutdown()
        } catch {
            await client.shutdown()
            try ChannelErrorPrinter.report(error)
        }
    }
}
