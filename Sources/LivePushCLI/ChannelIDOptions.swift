import APNsClient
import APNsCore
import ArgumentParser
import Foundation

/// What `livepush channels read` and `delete` take: the options of every channels subcommand and the
/// channel's id.
struct ChannelIDOptions: ParsableArguments {
    @OptionGroup var options: ChannelOptions
    @Option(help: "The channel id (base64, as create printed it).") var channel: String

    func validate() throws {
        try options.validate()
        _ = try ChannelOptions.channelID(channel)
    }

    /// Runs `body` with a client for the management endpoint, the channel's id and the request id, and
    /// reports a refusal or failure.
    func withClient(_ body: (APNsClient, APNsChannelID, UUID?) async throws(APNsBroadcastError) -> Void) async throws {
        let id = try ChannelOptions.channelID(channel)
        let requestID = try options.requestUUID()
        try await options.withClient { (client: APNsClient) throws(APNsBroadcastError) in
            try await body(client, id, requestID)
        }
    }
}
