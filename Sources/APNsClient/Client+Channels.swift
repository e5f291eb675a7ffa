import APNsCore
import Foundation

/// Broadcast channel management (docs/apns-protocol.md §10.1) on the management endpoint
/// (`configuration.resolvedChannelManagementEndpoint`), with the client's provider token, request
/// deadline and retry rules.
extension APNsClient {
    /// Creates a Live Activity channel. Accepts 201 (documented) and 200 (reported).
    public func createChannel(
        bundleID: String, storagePolicy: APNsMessageStoragePolicy, requestID: UUID? = nil
    ) async throws(APNsBroadcastError) -> APNsCreatedChannel {
        let response = try await manage(bundleID: bundleID, .create(storagePolicy), requestID: requestID)
        guard response.status == 201 || response.status == 200 else { throw Self.rejection(response) }
        guard let raw = response.channelID else {
            throw .unexpectedAnswer("channel create answered \(response.status) without apns-channel-id")
        }
        let channelID: APNsChannelID
        do {
            channelID = try APNsChannelID(raw)
        } catch {
            throw .unexpectedAnswer("apns-channel-id '\(raw)': \(error.description)")
        }
        return APNsCreatedChannel(channelID: channelID, storagePolicy: storagePolicy, requestID: response.requestID, status: response.status)
    }

    /// Reads a channel's storage policy and push type.
    public func readChannel(
        bundleID: String, channelID: APNsChannelID, requestID: UUID? = nil
    ) async throws(APNsBroadcastError) -> APNsChannelConfiguration {
        let response = try await manage(bundleID: bundleID, .read(channelID), requestID: requestID)
        guard response.status == 200 else { throw Self.rejection(response) }
        let body: ChannelBody
        do {
            body = try JSONDecoder().decode(ChannelBody.self, from: response.body)
        } catch {
            throw .unexpectedAnswer(
                "channel read body is not {\"message-storage-policy\":n,\"push-type\":…}: \(String(decoding: response.body.prefix(200), as: UTF8.self))"
            )
        }
        guard let policy = APNsMessageStoragePolicy(rawValue: body.storagePolicy) else {
            throw .unexpectedAnswer("message-storage-policy \(body.storagePolicy) is neither 0 nor 1")
        }
        return APNsChannelConfiguration(channelID: channelID, storagePolicy: policy, pushType: body.pushType, requestID: response.requestID)
    }

    /// Deletes a channel; returns the `apns-request-id`. Messages already stored may still be delivered.
    @discardableResult
    public func deleteChannel(
        bundleID: String, channelID: APNsChannelID, requestID: UUID? = nil
    ) async throws(APNsBroadcastError) -> String? {
        let response = try await manage(bundleID: bundleID, .delete(channelID), requestID: requestID)
        guard response.status == 204 || response.status == 200 else { throw Self.rejection(response) }
        return response.requestID
    }

    /// Every channel of the app in this environment.
    public func listChannels(bundleID: String, requestID: UUID? = nil) async throws(APNsBroadcastError) -> [APNsChannelID] {
        let response = try await manage(bundleID: bundleID, .list, requestID: requestID)
        guard response.status == 200 else { throw Self.rejection(response) }
        let body: ChannelList
        do {
            body = try JSONDecoder().decode(ChannelList.self, from: response.body)
        } catch {
            throw .unexpectedAnswer("channel list body is not {\"channels\":[…]}: \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        return body.channels
    }

    private func manage(
        bundleID: String, _ operation: APNsChannelRequest.Operation, requestID: UUID?
    ) async throws(APNsBroadcastError) -> WireResponse {
        let request: APNsChannelRequest
        do {
            request = try APNsChannelRequest(bundleID: bundleID, operation: operation, requestID: requestID)
        } catch {
            throw .invalidRequest(error.description)
        }
        let lane: KeyLane
        do {
            lane = try self.lane(forTopic: bundleID)
        } catch {
            throw .transport(error)
        }
        let exchange = await exchange(
            WireRequest(request), on: lane.managementPool, tokens: lane.tokens, deadline: nil, subject: "channels of \(bundleID)")
        switch exchange.result {
        case .success(let response): return response
        case .failure(let error): throw .transport(error)
        }
    }

    private struct ChannelBody: Decodable {
        var storagePolicy: Int
        var pushType: String

        enum CodingKeys: String, CodingKey {
            case storagePolicy = "message-storage-policy"
            case pushType = "push-type"
        }
    }

    private struct ChannelList: Decodable {
        var channels: [APNsChannelID]
    }
}
