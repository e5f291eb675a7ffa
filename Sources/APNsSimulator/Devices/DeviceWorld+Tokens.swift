import APNsCore
import Foundation
import LiveActivity

extension DeviceWorld {
    /// Gives an activity a new update token; the previous one stops working after the retirement delay.
    @discardableResult
    func issueUpdateToken(activityID: String, at now: Date) -> String? {
        guard let activity = activities[activityID], let device = devices[activity.deviceID] else { return nil }
        let token = newToken(byteCount: rules.updateTokenByteCount)
        let previous = activity.pushToken
        if let previous { tokens[previous]?.invalidSince = now.addingTimeInterval(rules.tokenRetirementDelay) }
        tokens[token] = TokenRecord(
            owner: .activity(id: activityID), environment: device.environment,
            bundleID: activity.bundleID, invalidSince: nil)
        activities[activityID]?.pushToken = token
        var data: [String: JSONValue] = [
            "kind": "pushToken", "activityId": .string(activityID), "deviceId": .string(device.id),
            "bundleId": .string(activity.bundleID), "attributesType": .string(activity.attributesType),
            "token": .string(token),
        ]
        if let previous { data["previousToken"] = .string(previous) }
        publish(previous == nil ? .tokenIssued : .tokenRotated, data: .object(data), at: now)
        postToWebhook(
            device: device, kind: "pushToken", token: token, activityID: activityID,
            bundleID: activity.bundleID, attributesType: activity.attributesType)
        return token
    }

    /// Gives an installed app a new push-to-start token; the previous one stops working after the
    /// retirement delay.
    func issuePushToStartToken(deviceID: String, bundleID: String, at now: Date) -> String? {
        guard let device = devices[deviceID], let index = device.appIndex(bundleID) else { return nil }
        let token = newToken(byteCount: rules.pushToStartTokenByteCount)
        let previous = device.apps[index].pushToStartToken
        let rotating = tokens[previous] != nil
        if rotating { tokens[previous]?.invalidSince = now.addingTimeInterval(rules.tokenRetirementDelay) }
        tokens[token] = TokenRecord(
            owner: .pushToStart(deviceID: deviceID, bundleID: bundleID),
            environment: device.environment, bundleID: bundleID, invalidSince: nil)
        devices[deviceID]?.apps[index].pushToStartToken = token
        var data: [String: JSONValue] = [
            "kind": "pushToStartToken", "deviceId": .string(deviceID), "bundleId": .string(bundleID),
            "token": .string(token),
        ]
        if rotating { data["previousToken"] = .string(previous) }
        publish(rotating ? .tokenRotated : .tokenIssued, data: .object(data), at: now)
        postToWebhook(
            device: device, kind: "pushToStartToken", token: token, activityID: nil,
            bundleID: bundleID, attributesType: nil)
        return token
    }

    /// POSTs a new token to the device's webhook in the background, as an app posts it to its server.
    /// Failures are logged and recorded on the device; they never affect the world.
    private func postToWebhook(
        device: SimulatedDevice, kind: String, token: String, activityID: String?, bundleID: String,
        attributesType: String?
    ) {
        guard let url = device.webhookURL else { return }
        let object: [String: JSONValue] = [
            "kind": .string(kind), "token": .string(token), "bundleId": .string(bundleID),
            "deviceId": .string(device.id), "environment": .string(device.environment.rawValue),
            "activityId": activityID.map(JSONValue.string) ?? .null,
            "attributesType": attributesType.map(JSONValue.string) ?? .null,
        ]
        let body = JSONValue.object(object).serialized()
        let client = webhookClient
        let deviceID = device.id
        Task {
            var status: Int?
            var failure: String?
            do {
                status = try await client.post(body, to: url)
            } catch {
                failure = "\(error)"
            }
            self.webhookFinished(
                deviceID: deviceID, kind: kind, token: token, activityID: activityID, status: status, error: failure)
        }
    }

    private func webhookFinished(
        deviceID: String, kind: String, token: String, activityID: String?, status: Int?, error: String?
    ) {
        let delivery = WebhookDelivery(
            kind: kind, token: token, activityID: activityID, at: clock.now(),
            status: status, error: error)
        devices[deviceID]?.webhookDeliveries.append(delivery)
        if let count = devices[deviceID]?.webhookDeliveries.count, count > rules.historyLimit {
            devices[deviceID]?.webhookDeliveries.removeFirst(count - rules.historyLimit)
        }
        let succeeded = status.map { (200..<300).contains($0) } ?? false
        if !succeeded {
            logger.warning(
                "token webhook failed",
                metadata: [
                    "device": "\(deviceID)", "token": "\(DeviceToken.shorten(token))",
                    "status": "\(status.map(String.init) ?? "none")", "error": "\(error ?? "")",
                ])
        }
        var data = SimulatorJSON.tree(delivery).objectValue ?? [:]
        data["deviceId"] = .string(deviceID)
        publish(succeeded ? .webhookDelivered : .webhookFailed, data: .object(data))
    }
}
