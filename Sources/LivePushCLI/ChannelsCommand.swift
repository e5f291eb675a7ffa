import APNsClient
import APNsCore
import ArgumentParser
import Foundation

/// `livepush channels`: broadcast channel management (docs/apns-protocol.md §10.1).
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, read, list and delete broadcast channels (iOS 18) on APNs or the local simulator.",
        discussion: """
            Channels live on Apple's management host: api-manage-broadcast.sandbox.push.apple.com:2195 \
            (--environment sandbox) or api-manage-broadcast.push.apple.com:2196 (production). For the \
            simulator give --url https://127.0.0.1:2195 --ca-file ~/.livepush/simulator/ca.pem. Broadcast \
            to a channel with `livepush send --channel ID`.
            Example:
              livepush channels create --environment sandbox --bundle-id com.example.app --storage-policy 1
            """,
        subcommands: [Create.self, Read.self, List.self, Delete.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a Live Activity channel; prints its id.")
        @OptionGroup var options: ChannelOptions
        @Option(
            name: .customLong("storage-policy"),
            help:
                "message-storage-policy: 0 (nothing stored, higher publishing budget) or 1 (the most recent message is kept up to 8 h for devices that subscribe or come online later). It cannot be changed later."
        )
        var storagePolicy: Int

        func validate() throws {
            guard APNsMessageStoragePolicy(rawValue: storagePolicy) != nil else {
                throw ValidationError(
                    "--storage-policy \(storagePolicy) is not a storage policy; accepted: 0 (no storage) or 1 (most recent message)")
            }
            try options.validate()
        }

        func run() async throws {
            let policy = APNsMessageStoragePolicy(rawValue: storagePolicy) ?? .noStorage
            let requestID = try options.requestUUID()
            try await options.withClient { (client: APNsClient) throws(APNsBroadcastError) in
                let created = try await client.createChannel(bundleID: options.bundleID, storagePolicy: policy, requestID: requestID)
                print("status: \(created.status)")
                print("channel-id: \(created.channelID)")
                print("message-storage-policy: \(created.storagePolicy)")
                print("apns-request-id: \(created.requestID ?? "-")")
            }
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a channel's storage policy and push type.")
        @OptionGroup var target: ChannelIDOptions

        func run() async throws {
            try await target.withClient { (client: APNsClient, id: APNsChannelID, requestID: UUID?) throws(APNsBroadcastError) in
                let configuration = try await client.readChannel(bundleID: target.options.bundleID, channelID: id, requestID: requestID)
                print("channel-id: \(configuration.channelID)")
                print("message-storage-policy: \(configuration.storagePolicy)")
                print("push-type: \(configuration.pushType)")
                print("apns-request-id: \(configuration.requestID ?? "-")")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's channels in this environment, one id a line.")
        @OptionGroup var options: ChannelOptions

        func validate() throws { try options.validate() }

        func run() async throws {
            let requestID = try options.requestUUID()
            try await options.withClient { (client: APNsClient) throws(APNsBroadcastError) in
                let ids = try await client.listChannels(bundleID: options.bundleID, requestID: requestID)
                for id in ids { print(id) }
                TerminalOutput.error("\(ids.count) channel\(ids.count == 1 ? "" : "s") of \(options.bundleID)")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a channel. Its id never comes back; messages already stored may still be delivered.")
        @OptionGroup var target: ChannelIDOptions

        func run() async throws {
            try await target.withClient { (client: APNsClient, id: APNsChannelID, requestID: UUID?) throws(APNsBroadcastError) in
                let requestID = try await client.deleteChannel(bundleID: target.options.bundleID, channelID: id, requestID: requestID)
                print("deleted: \(id)")
                print("apns-request-id: \(requestID ?? "-")")
            }
        }
    }
}
