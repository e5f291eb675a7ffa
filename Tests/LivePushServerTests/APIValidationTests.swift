import APNsCore
import Foundation
import LiveActivity
import LivePushServer
import LivePushTesting
import PushStore
import Testing

@Suite struct APIValidationTests {
    let token = String(repeating: "ab", count: 32)

    @Test func authenticationAndScopes() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let body = registrationJSON(activityID: "a1", token: token)

            let missing = try await http.post("/v1/activities", key: nil, body)
            #expect(missing.status == 401 && missing.errorField == "Authorization" && missing.errorRule == "required")
            let unknown = try await http.post("/v1/activities", key: "not-a-real-key-at-all", body)
            #expect(unknown.status == 401 && unknown.errorRule == "apiKey")
            let backendRegisters = try await http.post("/v1/activities", key: TestServer.backendKey, body)
            #expect(backendRegisters.status == 403 && backendRegisters.errorField == "Authorization" && backendRegisters.errorRule == "scope")
            #expect(try await harness.store.activity(id: "a1") == nil)

            let registered = try await http.post("/v1/activities", key: TestServer.appKey, body)
            #expect(registered.status == 201)
            #expect(registered.json?["activityId"]?.stringValue == "a1")
            #expect(registered.json?["pushToken"]?.stringValue == "abab…abab")

            let appSends = try await http.post("/v1/activities/a1/update", key: TestServer.appKey, #"{"contentState":{"hp":1}}"#)
            #expect(appSends.status == 403 && appSends.errorRule == "scope")
            let appReads = try await http.get("/v1/activities/a1", key: TestServer.appKey)
            #expect(appReads.status == 403)
        }
    }

    @Test func storedKeysAreCheckedByHashAndRevocation() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let key = APIKeys.generate(scope: .backend)
            #expect(key.hasPrefix("lp_backend_"))
            let hash = APIKeys.hash(key)
            #expect(hash.count == 64 && hash != key)
            // The SHA-256 of the key's UTF-8, in lowercase hex: what `livepush keys create` stores and databases hold.
            #expect(APIKeys.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
            let record = try await harness.store.createAPIKey(name: "ci", scope: .backend, sha256Hash: hash, at: Date())
            let ok = try await harness.http.get("/v1/activities/none", key: key)
            #expect(ok.status == 404 && ok.errorField == "activityId")
            _ = try await harness.store.revokeAPIKey(id: record.id, at: Date())
            let revoked = try await harness.http.get("/v1/activities/none", key: key)
            #expect(revoked.status == 401 && revoked.errorRule == "apiKey")
        }
    }

    @Test func registrationFieldsAreChecked() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let key = TestServer.appKey
            let nonHex = try await http.post("/v1/activities", key: key, registrationJSON(activityID: "a1", token: "abzz"))
            #expect(nonHex.status == 400 && nonHex.errorField == "pushToken" && nonHex.errorRule == "hex")
            let odd = try await http.post("/v1/activities", key: key, registrationJSON(activityID: "a1", token: "abc"))
            #expect(odd.status == 400 && odd.errorField == "pushToken")
            let environment = try await http.post(
                "/v1/activities", key: key, registrationJSON(activityID: "a1", token: token, environment: "staging"))
            #expect(environment.status == 400 && environment.errorField == "environment" && environment.errorRule == "oneOf")
            let missing = try await http.post("/v1/activities", key: key, #"{"activityId":"a1","pushToken":"\#(token)"}"#)
            #expect(missing.status == 400 && missing.errorField == "bundleId" && missing.errorRule == "required")
            let unknownField = try await http.post("/v1/activities", key: key, #"{"activityId":"a1","pushTokn":"ab"}"#)
            #expect(unknownField.status == 400 && unknownField.errorField == "pushTokn" && unknownField.errorRule == "unknown")
            let notJSON = try await http.post("/v1/activities", key: key, "{activityId:")
            #expect(notJSON.status == 400 && notJSON.errorRule == "json")
            let array = try await http.post("/v1/activities", key: key, "[]")
            #expect(array.status == 400 && array.errorRule == "object")
            let longID = try await http.post(
                "/v1/activities", key: key, registrationJSON(activityID: String(repeating: "x", count: 129), token: token))
            #expect(longID.status == 400 && longID.errorField == "activityId" && longID.errorRule == "maxLength")
            #expect(try await harness.store.activityCount() == 0)

            let rotateUnknown = try await http.put("/v1/activities/nope/push-token", key: key, #"{"pushToken":"\#(token)"}"#)
            #expect(rotateUnknown.status == 404 && rotateUnknown.errorField == "activityId")
            let pts = try await http.put(
                "/v1/push-to-start-tokens", key: key,
                #"{"userId":"u","deviceId":"d","bundleId":"b","attributesType":"T","environment":"sandbox","token":"xyz"}"#)
            #expect(pts.status == 400 && pts.errorField == "token" && pts.errorRule == "hex")
        }
    }

    @Test func sendRequestsAreCheckedAndNothingIsHalfWritten() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            let key = TestServer.backendKey
            #expect(try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "a1", token: token)).status == 201)

            let unknown = try await http.post("/v1/activities/nope/update", key: key, #"{"contentState":{"hp":1}}"#)
            #expect(unknown.status == 404 && unknown.errorField == "activityId" && unknown.errorRule == "exists")
            let badDate = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"staleDate":"next tuesday"}"#)
            #expect(badDate.status == 400 && badDate.errorField == "staleDate" && badDate.errorRule == "date")
            let badPriority = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"priority":7}"#)
            #expect(badPriority.status == 400 && badPriority.errorField == "priority" && badPriority.errorRule == "oneOf")
            let onePriority = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"priority":1}"#)
            #expect(onePriority.json?["error"]?["message"]?.stringValue?.hasPrefix("'priority' is 1;") == true, "\(onePriority.text)")
            let fractional = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"priority":5.5}"#)
            #expect(fractional.json?["error"]?["message"]?.stringValue?.hasPrefix("'priority' is 5.5;") == true, "\(fractional.text)")
            let contradiction = try await http.post(
                "/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"priority":5,"importance":"timeSensitive"}"#)
            #expect(contradiction.status == 400 && contradiction.errorField == "importance")
            let notObject = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":[1,2]}"#)
            #expect(notObject.status == 400 && notObject.errorField == "contentState" && notObject.errorRule == "object")
            let emptyLocKey = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"alert":{"title":{"locKey":""}}}"#)
            #expect(emptyLocKey.status == 400 && emptyLocKey.errorField == "alert.title.locKey")
            let big = String(repeating: "x", count: 4100)
            let tooLarge = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"text":"\#(big)"}}"#)
            #expect(tooLarge.status == 400 && tooLarge.errorField == "contentState" && tooLarge.errorRule == "maxPayloadSize")
            let dismissalOnUpdate = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"dismissalDate":0}"#)
            #expect(dismissalOnUpdate.status == 400 && dismissalOnUpdate.errorField == "dismissalDate" && dismissalOnUpdate.errorRule == "unknown")
            let pastExpiration = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"expiration":1000}"#)
            #expect(pastExpiration.status == 400 && pastExpiration.errorField == "expiration")
            for (field, value) in [
                ("staleDate", "\"0001-01-01T00:00:00Z\""), ("staleDate", "\"9999-12-31T00:00:00Z\""),
                ("staleDate", "\"-1000000d\""), ("staleDate", "4102444800000"), ("expiration", "\"+31d\""),
            ] {
                let outOfRange = try await http.post("/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"\#(field)":\#(value)}"#)
                #expect(
                    outOfRange.status == 400 && outOfRange.errorField == field && outOfRange.errorRule == "dateRange", "\(value): \(outOfRange.text)")
            }
            let noSuchDay = try await http.post(
                "/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"staleDate":"2026-02-30T00:00:00Z"}"#)
            #expect(noSuchDay.status == 400 && noSuchDay.errorField == "staleDate" && noSuchDay.text.contains("does not exist"), "\(noSuchDay.text)")
            let noGroup = try await http.post("/v1/groups/nobody/update", key: key, #"{"contentState":{"hp":1}}"#)
            #expect(noGroup.status == 404 && noGroup.errorField == "groupId")
            let noStartToken = try await http.post(
                "/v1/users/u1/start", key: key, #"{"contentState":{"hp":1},"attributesType":"T","attributes":{},"alert":{"title":"Go"}}"#)
            #expect(noStartToken.status == 404 && noStartToken.errorField == "userId")
            let startWithoutAlert = try await http.post(
                "/v1/users/u1/start", key: key, #"{"contentState":{"hp":1},"attributesType":"T","attributes":{}}"#)
            #expect(startWithoutAlert.status == 400 && startWithoutAlert.errorField == "alert")

            #expect(try await harness.store.outboxDepth() == 0)
            let record = try #require(try await harness.store.activity(id: "a1"))
            #expect(record.lastContentState == nil)

            let accepted = try await http.post(
                "/v1/activities/a1/update", key: key, #"{"contentState":{"hp":1},"staleDate":"2030-01-01T00:00:00Z","expiration":"+29d"}"#)
            #expect(accepted.status == 202)
            #expect(accepted.json?["pushIds"]?.arrayValue?.count == 1)
            #expect(try await harness.store.outboxDepth() == 1)
        }
    }

    @Test func unknownRoutesAndOperations() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let missing = try await http.get("/v1/nothing-here")
            #expect(missing.status == 404 && missing.errorRule == "route")
            let health = try await http.get("/health")
            #expect(health.status == 200 && health.json?["status"]?.stringValue == "ok")
            let metrics = try await http.get("/metrics")
            #expect(metrics.status == 200 && metrics.text.contains("livepush_server_outbox_depth"))
        }
    }

    @Test func pathIDsArePercentDecodedAndCountedInCharacters() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            // Registered through the body, reached through the path: a space, non-ASCII letters and a slash.
            let id = "café au lait/1"
            #expect(
                try await http.post(
                    "/v1/activities", key: TestServer.appKey, registrationJSON(activityID: id, token: String(repeating: "ab", count: 32))
                ).status == 201)
            let read = try await http.get("/v1/activities/caf%C3%A9%20au%20lait%2F1", key: TestServer.backendKey)
            #expect(read.status == 200, "\(read.text)")
            #expect(read.json?["activity"]?["activityId"]?.stringValue == id)
            // 15 Ogham letters are 15 characters (135 bytes percent-encoded): within the limit of 128.
            let ogham = String(repeating: "\u{1681}", count: 15)
            let encoded = ogham.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let unknown = try await http.get("/v1/activities/\(encoded)", key: TestServer.backendKey)
            #expect(unknown.status == 404 && unknown.errorField == "activityId" && unknown.errorRule == "exists", "\(unknown.text)")
            let tooLong = try await http.get("/v1/activities/\(String(repeating: "%C3%A9", count: 129))", key: TestServer.backendKey)
            #expect(tooLong.status == 400 && tooLong.errorRule == "maxLength" && tooLong.text.contains("129 characters"))
            let malformed = try await http.get("/v1/activities/bad%FF", key: TestServer.backendKey)
            #expect(malformed.status == 400 && malformed.errorField == "activityId" && malformed.errorRule == "percentEncoding")
        }
    }

    /// The path parameters follow the document's `Id` pattern: a control character is 400 invalid naming the
    /// parameter, from the route (not the store's message about a body field), on every route with an id.
    @Test func pathIDsWithAControlCharacterAreRefusedNamingTheParameter() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let cases: [(method: String, path: String, key: String, body: String?, parameter: String)] = [
                ("GET", "/v1/activities/bad%07id", TestServer.backendKey, nil, "activityId"),
                ("POST", "/v1/activities/bad%00id/update", TestServer.backendKey, #"{"contentState":{"hp":1}}"#, "activityId"),
                ("PUT", "/v1/activities/bad%1Fid/push-token", TestServer.appKey, #"{"pushToken":"\#(token)"}"#, "activityId"),
                ("POST", "/v1/activities/bad%7Fid/ended", TestServer.appKey, nil, "activityId"),
                ("POST", "/v1/activities/bad%C2%85id/dismissed", TestServer.appKey, nil, "activityId"),
                ("POST", "/v1/groups/party%0A1/update", TestServer.backendKey, #"{"contentState":{"hp":1}}"#, "groupId"),
                ("POST", "/v1/groups/party%0D1/end", TestServer.backendKey, "{}", "groupId"),
                (
                    "POST", "/v1/users/player%091/start", TestServer.backendKey,
                    #"{"contentState":{"hp":1},"attributesType":"T","attributes":{},"alert":{"title":"x"}}"#, "userId"
                ),
            ]
            for item in cases {
                let response = try await http.request(item.method, item.path, key: item.key, body: item.body.map { Data($0.utf8) }).response
                #expect(
                    response.status == 400 && response.errorField == item.parameter && response.errorRule == "invalid",
                    "\(item.method) \(item.path): \(response.status) \(response.text)")
                #expect(response.text.contains("control character U+"), "\(response.text)")
            }
            // The message names the character and where it is: U+0085 (NEL) is the 4th character of "bad\u{85}id".
            let nel = try await http.request("POST", "/v1/activities/bad%C2%85id/dismissed", key: TestServer.appKey, body: nil).response
            #expect(nel.text.contains("U+0085 at position 4"), "\(nel.text)")
            // A start's attributesType follows the same rule, checked by the route (no token is looked up with it).
            let start = try await http.post(
                "/v1/users/player-1/start", key: TestServer.backendKey,
                #"{"contentState":{"hp":1},"attributesType":"Adventure\u0007","attributes":{},"alert":{"title":"x"}}"#)
            #expect(start.status == 400 && start.errorField == "attributesType" && start.errorRule == "invalid", "\(start.text)")
            // Printable text just outside the control ranges (U+00A0, a space) passes the check and is looked up.
            let printable = try await http.get("/v1/activities/no%C2%A0such%20id", key: TestServer.backendKey)
            #expect(printable.status == 404 && printable.errorRule == "exists", "\(printable.text)")
        }
    }

    /// A date given as a number is held to its range as that number: a Date rounds a tiny negative
    /// dismissal date (-2.2e-309 s) to exactly 1970-01-01, which used to slip past the earliest bound.
    @Test func numericDatesAreComparedBeforeRounding() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            #expect(
                try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "round-1", token: token)).status == 201)
            let tiny = try await http.post("/v1/activities/round-1/ended", key: TestServer.appKey, #"{"dismissalDate":-2.225073858507203e-309}"#)
            #expect(tiny.status == 400 && tiny.errorField == "dismissalDate" && tiny.errorRule == "dateRange", "\(tiny.status) \(tiny.text)")
            let zero = try await http.post("/v1/activities/round-1/ended", key: TestServer.appKey, #"{"dismissalDate":0}"#)
            #expect(zero.status == 200, "\(zero.text)")
        }
    }

    /// Absolute dates have a fixed window, 2001-01-01T00:00:00Z to before 2100-01-01T00:00:00Z (it used to end
    /// 10 years from now, which no schema can state), in every form; a dismissal date from Unix 0; an
    /// expiration stays within 30 days from now.
    @Test func datesHaveAFixedWindowEndingBefore2100() async throws {
        try await withServer(ServerOptions(sender: FakeSender()) { $0.workerCount = 0 }) { harness in
            let http = harness.http
            let key = TestServer.backendKey
            #expect(try await http.post("/v1/activities", key: TestServer.appKey, registrationJSON(activityID: "w1", token: token)).status == 201)
            func update(_ field: String, _ value: String) async throws -> TestResponse {
                try await http.post("/v1/activities/w1/update", key: key, #"{"contentState":{"hp":1},"\#(field)":\#(value)}"#)
            }
            for value in [
                "4102444799", "4102444799.5", #""4102444799""#, #""2099-12-31T23:59:59Z""#, #""2099-12-31T23:59:59.999Z""#,
                #""2100-01-01T00:30:00+01:00""#, "978307200", #""0978307200""#, #""2001-01-01T00:00:00Z""#, #""+999d""#,
            ] {
                let accepted = try await update("staleDate", value)
                #expect(accepted.status == 202, "staleDate \(value): \(accepted.text)")
            }
            for value in [
                "4102444800", #""4102444800""#, #""2100-01-01T00:00:00Z""#, #""2099-12-31T23:30:00-01:00""#, "978307199.5",
                #""2001-01-01T00:30:00+01:00""#,
            ] {
                let refused = try await update("staleDate", value)
                #expect(
                    refused.status == 400 && refused.errorField == "staleDate" && refused.errorRule == "dateRange",
                    "staleDate \(value): \(refused.text)")
                #expect(refused.text.contains("to before 2100-01-01T00:00:00Z"), "\(refused.text)")
            }
            for (value, rule) in [
                (#""+2592000s""#, nil), (#""+30d""#, nil), (#""+720h""#, nil), (#""+2592001s""#, "dateRange"),
                (#""+31d""#, "dateRange"), (#""+0s""#, "future"), (#""2099-12-31T00:00:00Z""#, "dateRange"), ("4102444800", "dateRange"),
            ] {
                let answer = try await update("expiration", value)
                if let rule {
                    #expect(
                        answer.status == 400 && answer.errorField == "expiration" && answer.errorRule == rule, "expiration \(value): \(answer.text)")
                } else {
                    #expect(answer.status == 202, "expiration \(value): \(answer.text)")
                }
            }
            let lateDismissal = try await http.post("/v1/activities/w1/end", key: key, #"{"dismissalDate":4102444800}"#)
            #expect(
                lateDismissal.status == 400 && lateDismissal.errorField == "dismissalDate" && lateDismissal.errorRule == "dateRange",
                "\(lateDismissal.text)")
            let lastDismissal = try await http.post("/v1/activities/w1/end", key: key, #"{"dismissalDate":"2099-12-31T23:59:59Z"}"#)
            #expect(lastDismissal.status == 202, "\(lastDismissal.text)")
        }
    }

    /// The channel list's `?bundleId=` follows the document's BundleId (it used to take any text, which
    /// matched nothing), and a channel's bundleId has no control character (checked before APNs is asked).
    @Test func channelBundleIDsAreChecked() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let http = harness.http
            let key = TestServer.backendKey
            for (query, rule) in [("", "nonEmpty"), (String(repeating: "a", count: 256), "maxLength"), ("com%07example", "invalid")] {
                let answer = try await http.get("/v1/channels?bundleId=\(query)", key: key)
                #expect(
                    answer.status == 400 && answer.errorField == "bundleId" && answer.errorRule == rule,
                    "?bundleId=\(query.prefix(20)): \(answer.text)")
            }
            let listed = try await http.get("/v1/channels?bundleId=\(String(repeating: "a", count: 255))", key: key)
            #expect(listed.status == 200, "\(listed.text)")
            let create = try await http.post("/v1/channels", key: key, #"{"name":"c1","bundleId":"com.example\u0007","storagePolicy":1}"#)
            #expect(create.status == 400 && create.errorField == "bundleId" && create.errorRule == "invalid", "\(create.text)")
        }
    }

    @Test func bodiesThatAreNotUTF8AreRefusedNamingTheField() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let body =
                Data(#"{"activityId":"bad-"#.utf8) + Data([0xFF, 0xFE])
                + Data(#"","pushToken":"abab","bundleId":"b","attributesType":"T","environment":"sandbox"}"#.utf8)
            let (refused, _) = try await harness.http.request("POST", "/v1/activities", key: TestServer.appKey, body: body)
            #expect(refused.status == 400 && refused.errorField == "activityId" && refused.errorRule == "utf8", "\(refused.text)")
            #expect(try await harness.store.activityCount() == 0, "nothing stored, not even with a replacement character")
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let (wrong, headers) = try await harness.http.request("DELETE", "/v1/activities/a1", key: TestServer.backendKey, body: nil)
            #expect(wrong.status == 405 && wrong.errorRule == "method", "\(wrong.status) \(wrong.text)")
            #expect(headers["allow"] == "GET")
            let (twoMethods, both) = try await harness.http.request("PATCH", "/v1/push-to-start-tokens", key: TestServer.appKey, body: nil)
            #expect(twoMethods.status == 405 && both["allow"] == "PUT")
            #expect(try await harness.http.get("/v1/nothing-here").status == 404)
        }
    }

    @Test func openAPIDescribesEveryRoute() async throws {
        try await withServer(ServerOptions(sender: FakeSender())) { harness in
            let document = try await harness.http.get("/openapi.json")
            #expect(document.status == 200)
            let json = try #require(document.json)
            #expect(json["openapi"]?.stringValue?.hasPrefix("3.") == true)
            let paths = try #require(json["paths"]?.objectValue)
            // Every route but the console's page and its files (HTML, CSS, modules: not API operations).
            let routes = harness.server.makeRouter().routes.filter { !$0.path.description.hasPrefix("/console") }
            #expect(routes.count == 42)
            #expect(harness.server.makeRouter().routes.count == routes.count + 2, "the console is /console and /console/{file}")
            for route in routes {
                let path = route.path.description.split(separator: "/").map { part in
                    part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
                }.joined(separator: "/")
                let method = route.method.rawValue.lowercased()
                #expect(paths["/" + path]?[method] != nil, "route \(route) is not in /openapi.json")
            }
            var documented = 0
            for (_, operations) in paths { documented += operations.objectValue?.count ?? 0 }
            #expect(documented == routes.count, "/openapi.json describes routes the router does not have")
        }
    }
}
