import APNsAuth
import APNsCore
import Foundation
import LiveActivity
import Testing

@testable import APNsSimulator

@Suite struct ControlAPITests {
    @Test func healthAndCACertificate() async throws {
        try await withControl { harness in
            let health = try await harness.request("GET", "/health")
            #expect(health.status == 200)
            #expect(health.json?["status"] == "ok")
            let ca = try await harness.request("GET", "/ca.pem")
            #expect(ca.status == 200)
            #expect(ca.text == ControlHarness.caPEM)
        }
    }

    @Test func deviceActivityAndRotationRoundTrip() async throws {
        try await withControl { harness in
            let app = try await harness.post(
                "/v1/apps",
                [
                    "bundleId": "com.example.rangers", "environment": "sandbox",
                    "localizations": ["HELLO": "Hello %@"], "attributesTypes": ["AdventureAttributes"],
                ])
            #expect(app.status == 201)
            #expect(app.json?["attributesTypes"] == ["AdventureAttributes"])

            let device = try await harness.post(
                "/v1/devices",
                [
                    "name": "Pat's iPhone", "bundleId": "com.example.rangers", "environment": "sandbox",
                    "frequentPushesEnabled": true,
                ])
            #expect(device.status == 201)
            let deviceID = try #require(device.json?["deviceId"]?.stringValue)
            let pushToStart = try #require(device.json?["pushToStartToken"]?.stringValue)
            #expect(pushToStart.count >= 64)

            let started = try await harness.post(
                "/v1/devices/\(deviceID)/activities",
                [
                    "attributesType": "AdventureAttributes", "attributes": ["hero": "Power Panda"],
                    "contentState": ["currentHealthLevel": 1.0, "eventDescription": "Ready"],
                    "relevanceScore": 10, "staleDate": "2099-01-01T00:00:00Z",
                ])
            #expect(started.status == 201)
            let activityID = try #require(started.json?["activityId"]?.stringValue)
            let token = try #require(started.json?["pushToken"]?.stringValue)
            #expect(token.count == 160)

            let listed = try await harness.request("GET", "/v1/devices")
            #expect(listed.json?["devices"]?.arrayValue?.count == 1)
            let one = try await harness.request("GET", "/v1/devices/\(deviceID)")
            #expect(one.json?["activities"]?.arrayValue?.first?["activityId"]?.stringValue == activityID)
            #expect(one.json?["frequentPushesEnabled"] == true)

            let activity = try await harness.request("GET", "/v1/activities/\(activityID)")
            #expect(activity.status == 200)
            #expect(activity.json?["state"] == "active")
            #expect(activity.json?["staleDate"] == "2099-01-01T00:00:00Z")
            #expect(activity.json?["contentStateSchema"] == ["currentHealthLevel": "number", "eventDescription": "string"])

            let rotated = try await harness.request("POST", "/v1/activities/\(activityID)/rotate-token")
            let newToken = try #require(rotated.json?["pushToken"]?.stringValue)
            #expect(newToken != token)
            let rotatedStart = try await harness.request("POST", "/v1/devices/\(deviceID)/rotate-push-to-start-token")
            #expect(rotatedStart.json?["pushToStartToken"]?.stringValue.map { $0 != pushToStart } == true)

            let ended = try await harness.post("/v1/activities/\(activityID)/end", ["immediate": true])
            #expect(ended.status == 200)
            #expect(ended.json?["state"] == "dismissed")
            #expect(ended.json?["endedBy"] == "app")
        }
    }

    @Test func badInputGetsTheJSONErrorShapeNamingTheField() async throws {
        try await withControl { harness in
            let missing = try await harness.post("/v1/devices", ["name": "x", "environment": "sandbox"])
            #expect(missing.status == 400)
            #expect(missing.json?["error"]?["field"] == "bundleId")
            #expect(missing.json?["error"]?["message"]?.stringValue?.isEmpty == false)

            let environment = try await harness.post("/v1/devices", ["name": "x", "bundleId": "com.example.a", "environment": "staging"])
            #expect(environment.status == 400)
            #expect(environment.json?["error"]?["field"] == "environment")
            #expect(environment.json?["error"]?["message"]?.stringValue?.contains("production") == true)

            let wrongType = try await harness.post("/v1/devices", ["name": 5, "bundleId": "com.example.a", "environment": "sandbox"])
            #expect(wrongType.json?["error"]?["field"] == "name")

            let https = try await harness.post(
                "/v1/devices",
                [
                    "name": "x", "bundleId": "com.example.a", "environment": "sandbox", "webhookURL": "https://example.com/hook",
                ])
            #expect(https.json?["error"]?["field"] == "webhookURL")

            let notJSON = try await harness.request("POST", "/v1/apps", body: "{nope")
            #expect(notJSON.status == 400)
            #expect(notJSON.json?["error"]?["field"] == .null)
            #expect(notJSON.json?["error"]?["message"]?.stringValue?.contains("not valid JSON") == true)

            let unknownDevice = try await harness.request("GET", "/v1/devices/nope")
            #expect(unknownDevice.status == 404)
            #expect(unknownDevice.json?["error"]?["field"] == "deviceId")

            let unknownRoute = try await harness.request("GET", "/v2/nothing")
            #expect(unknownRoute.status == 404)
            #expect(unknownRoute.json?["error"]?["message"]?.stringValue?.contains("/v2/nothing") == true)

            let badDate = try await harness.post("/v1/devices", ["name": "x", "bundleId": "com.example.a", "environment": "sandbox"])
            let deviceID = try #require(badDate.json?["deviceId"]?.stringValue)
            let activity = try await harness.post(
                "/v1/devices/\(deviceID)/activities",
                [
                    "attributesType": "A", "attributes": [:], "contentState": ["a": 1], "staleDate": "tomorrow",
                ])
            #expect(activity.status == 400)
            #expect(activity.json?["error"]?["field"] == "staleDate")
            #expect(activity.json?["error"]?["message"]?.stringValue?.contains("ISO 8601") == true)

            let limit = try await harness.request("GET", "/v1/pushes?limit=zero")
            #expect(limit.status == 400)
            #expect(limit.json?["error"]?["field"] == "limit")
        }
    }

    @Test func keysAndFaults() async throws {
        try await withControl { harness in
            let key = APNsSigningKey.generate()
            let registered = try await harness.post(
                "/v1/keys",
                [
                    "keyId": "ABC123DEFG", "teamId": "TEAM123456", "privateKeyPEM": .string(key.pemRepresentation),
                    "environment": "sandbox", "topics": ["com.example.rangers"],
                ])
            #expect(registered.status == 201)
            #expect(
                registered.json?["publicKeyPEM"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines)
                    == key.publicKeyPEM.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(!registered.text.contains("PRIVATE KEY"))
            let listed = try await harness.request("GET", "/v1/keys")
            #expect(listed.json?["keys"]?.arrayValue?.count == 1)
            let badKey = try await harness.post("/v1/keys", ["keyId": "K", "teamId": "T", "publicKeyPEM": "junk"])
            #expect(badKey.status == 400)
            #expect(badKey.json?["error"]?["field"] == "publicKeyPEM")

            let fault = try await harness.post("/v1/faults", ["status": 503, "reason": "ServiceUnavailable", "share": 0.5])
            #expect(fault.status == 201)
            let faultID = try #require(fault.json?["id"]?.numberValue)
            #expect(try await harness.request("GET", "/v1/faults").json?["faults"]?.arrayValue?.count == 1)
            let badFault = try await harness.post("/v1/faults", ["status": 503, "reason": "ServiceUnavailable", "share": 2])
            #expect(badFault.status == 400)
            #expect(badFault.json?["error"]?["field"] == "share")
            let removed = try await harness.request("DELETE", "/v1/faults/\(Int(faultID))")
            #expect(removed.status == 200)
            #expect(harness.faults.rules().isEmpty)
            let latency = try await harness.post("/v1/faults", ["latencyMilliseconds": 10])
            #expect(latency.status == 201 || latency.status == 200, "share may be left out")
            #expect(harness.faults.rules().first?.rule.share == 1, "a rule without share applies to every request")
            let cleared = try await harness.request("DELETE", "/v1/faults")
            #expect(cleared.status == 200)
            #expect(harness.faults.rules().isEmpty)
        }
    }

    @Test func pushLogListsRecordedExchanges() async throws {
        try await withControl { harness in
            for index in 0..<3 {
                await harness.world.record(
                    PushExchange(
                        method: "POST", path: "/3/device/abcd", token: "abcd", headers: [], payload: Data("{\"aps\":{}}".utf8),
                        status: 400, apnsID: "ID-\(index)", apnsUniqueID: nil, reason: .badDeviceToken,
                        receivedAt: Date(timeIntervalSince1970: 1_700_000_000), latencySeconds: 0.001))
            }
            let log = try await harness.request("GET", "/v1/pushes?limit=2")
            let pushes = try #require(log.json?["pushes"]?.arrayValue)
            #expect(pushes.map { $0["apnsId"] } == ["ID-1", "ID-2"])
            #expect(pushes.first?["reason"] == "BadDeviceToken")
            #expect(pushes.first?["receivedAt"] == "2023-11-14T22:13:20Z")
        }
    }

    @Test func eventStreamDeliversEvents() async throws {
        try await withControl { harness in
            try await withStreamingReader(URL(string: "http://127.0.0.1:\(harness.port)/v1/events")!) { reader in
                var iterator = reader.chunks.makeAsyncIterator()
                var buffer = ""
                #expect(await readUntil(": connected", in: &iterator, buffer: &buffer))
                _ = try await harness.post("/v1/devices", ["name": "SSE", "bundleId": "com.example.sse", "environment": "production"])
                #expect(await readUntil("event: tokenIssued", in: &iterator, buffer: &buffer))
                #expect(buffer.contains("event: deviceAdded\ndata: {"))
                let line = buffer.split(separator: "\n").first { $0.hasPrefix("data: ") && $0.contains("deviceAdded") }
                let json = try JSONValue.parse(String(line?.dropFirst("data: ".count) ?? ""))
                #expect(json["kind"] == "deviceAdded")
                #expect(json["data"]?["name"] == "SSE")
            }
        }
    }
}
