import APNsClient
import APNsCore
import ArgumentParser
import Foundation

/// The client of `livepush channels` and `livepush send --channel`: a .p8 key's provider token or a
/// provider certificate, the extra CA, one connection, the request deadline.
enum ChannelClientFactory {
    static func make(
        endpoint: APNsEndpoint, channelEndpoint: APNsEndpoint?, caFile: String?, credentials: CredentialOptions,
        certificate: CertificateOptions, options: ClientOptions
    ) throws -> APNsClient {
        let authentication = try ClientAuthentication(credentials: credentials, certificate: certificate)
        return try OutcomePrinter.client {
            try APNsClient(
                configuration: APNsClientConfiguration(
                    endpoint: endpoint,
                    channelManagementEndpoint: channelEndpoint,
                    additionalTrustRootFile: caFile.map { NSString(string: $0).expandingTildeInPath },
                    clientCertificate: authentication.certificate,
                    maximumConnections: 1,
                    requestTimeout: options.requestTimeout
                ),
                tokens: authentication.tokens,
                logger: options.logger(label: "livepush.channels")
            )
        }
    }
}

/// Prints a failed broadcast or channel request and exits non-zero: 1 for APNs' refusal, 2 when there
/// was no answer.
enum ChannelErrorPrinter {
    static func report(_ error: APNsBroadcastError) throws -> Never {
        switch error {
        case .rejected(let status, let reason, let requestID):
            print("status: \(status)")
            print("reason: \(reason.rawValue)")
            if let requestID { print("apns-request-id: \(requestID)") }
            TerminalOutput.error("what to do: \(reason.broadcastRemedy)")
            throw ExitCode(1)
        case .transport, .unexpectedAnswer, .invalidRequest:
            TerminalOutput.error("error: \(error.description)")
            throw ExitCode(2)
        }
    }
}
