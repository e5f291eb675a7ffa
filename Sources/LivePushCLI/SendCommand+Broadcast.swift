import APNsAuth
import APNsClient
import APNsCore
import ArgumentParser
import Foundation
import LiveActivity
import Logging

/// `livepush send --channel ID`: one broadcast to every activity subscribed to a channel
/// (docs/apns-protocol.md §10.2).
extension SendCommand {
    func validateBroadcast() throws {
        guard pushType == .liveactivity else {
            throw ValidationError("--push-type \(pushType.rawValue) cannot be broadcast; channels carry Live Activity updates only")
        }
        guard [1, 5, 10].contains(priority) else {
            throw ValidationError("--priority \(priority) is not allowed for a broadcast; use 10, 5 or 1")
        }
        guard content.event != .start else {
            throw ValidationError(
                "--event start cannot be broadcast: a broadcast only updates or ends the activities subscribed to the channel; start one with push-to-start and --input-push-channel"
            )
        }
        if apnsID != nil { throw ValidationError("--apns-id is for pushes to a token; a broadcast takes --request-id") }
        if collapseID != nil { throw ValidationError("--collapse-id is for pushes to a token; broadcasts have no apns-collapse-id") }
        guard count == 1 else { throw ValidationError("--count is for pushes to a token; send one broadcast at a time") }
        try certificate.validate(against: credentials)
        _ = try ClientOptions.requestID(requestID)
    }

    /// The broadcast the flags describe, checked as `LiveActivityBroadcast` checks it.
    func makeBroadcast(now: Date) throws -> APNsBroadcastRequest {
        let payload = try content.makePayload(now: now)
        let expiration: APNsExpiration = self.expiration == nil ? .immediately : try expirationValue(now: now)
        let requestUUID = try ClientOptions.requestID(requestID)
        let broadcast = LiveActivityBroadcast(
            bundleID: target.bundleID, channelID: target.channel ?? "", payload: payload,
            priority: APNsPriority(rawValue: priority) ?? .immediate, expiration: expiration, requestID: requestUUID
        )
        do {
            return try broadcast.makeRequest()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    func runBroadcast() async throws {
        let request = try makeBroadcast(now: Date())
        let endpoint = try target.endpoint()
        if dryRun {
            let note = ClientAuthentication.dryRunNote(credentials: credentials, certificate: certificate)
            print(
                RequestPrinter.describe(
                    method: "POST", path: request.path, fields: request.fields, body: request.body, endpoint: endpoint,
                    authorization: note
                ))
            return
        }
        let client = try ChannelClientFactory.make(
            endpoint: endpoint, channelEndpoint: nil, caFile: target.caFile, credentials: credentials,
            certificate: certificate, options: clientOptions
        )
        do {
            let receipt = try await client.broadcast(request)
            await client.shutdown()
            print("status: 200")
            print("channel-id: \(receipt.channelID)")
            print("apns-request-id: \(receipt.requestID ?? "-")")
            if let unique = receipt.uniqueID { print("apns-unique-id: \(unique)") }
            if receipt.attempts > 1 { print("attempts: \(receipt.attempts)") }
        } catch {
            await client.shutdown()
            try ChannelErrorPrinter.report(error)
        }
    }
}
