import APNsCore
import Foundation
import Hummingbird
import LiveActivity
import LivePushAPITypes
import Testing

@testable import LivePushServer

/// A body the contract accepts is decoded as the contract's generated type, from the value parsed for the
/// check, and read into the same domain values the route reads: every form of a date, both forms of an alert
/// text, free-form objects as given.
@Suite struct RequestBodyTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func body<Body: Decodable>(_ operation: String, _ type: Body.Type, _ json: String) throws -> Body {
        try ContractRoute(operation).body(type, ByteBuffer(string: json), now: Self.now)
    }

    @Test func anUpdateReadsEveryMember() throws {
        let update = try body(
            "updateActivity", Schemas.Update.self,
            #"{"contentState":{"hp":1,"ratio":0.5,"name":"Cake","tags":["a",null],"nested":{"ok":true,"none":null}},"#
                + #""alert":{"title":"Loot","body":{"locKey":"FOUND","locArgs":["Cake"]}},"sound":"chime.aiff","importance":"time-sensitive","#
                + #""staleDate":"+30m","relevanceScore":50,"expiration":1800000600,"collapseId":"c1"}"#)
        let content = PushRequestBody(update).content(now: Self.now)
        #expect(
            content.contentState
                == .object([
                    "hp": 1, "ratio": 0.5, "name": "Cake", "tags": .array(["a", .null]), "nested": .object(["ok": .bool(true), "none": .null]),
                ]))
        #expect(content.alert == LiveActivityAlert(title: "Loot", body: .localized(key: "FOUND", arguments: ["Cake"]), sound: .file("chime.aiff")))
        #expect(content.requestedPriority == .immediate && content.importance == .timeSensitive)
        #expect(content.staleDate == Self.now.addingTimeInterval(1800))
        #expect(content.relevanceScore == 50)
        // Unix seconds as a number: a form the contract accepts though the document lists only the relative one.
        #expect(content.expiration == Date(timeIntervalSince1970: 1_800_000_600))
        #expect(content.collapseID == "c1")
        #expect(content.dismissalDate == nil && content.attributesType == nil && content.inputPushToken == false)
    }

    /// Each form names the same moment, an hour from now.
    @Test func datesInEveryForm() throws {
        for json in ["1800003600", #""1800003600""#, #""2027-01-15T09:00:00Z""#, #""2027-01-15T10:00:00+01:00""#, #""+1h""#, #""+60m""#] {
            let end = try body("endActivity", Schemas.End.self, #"{"staleDate":\#(json),"dismissalDate":\#(json),"expiration":\#(json)}"#)
            let content = PushRequestBody(end).content(now: Self.now)
            let expected = Self.now.addingTimeInterval(3600)
            #expect(content.staleDate == expected && content.dismissalDate == expected && content.expiration == expected, "\(json)")
        }
    }

    @Test func nullMembersAreAbsentAndPriorityDefaultsToRoutine() throws {
        let end = try body("endActivity", Schemas.End.self, #"{"contentState":null,"alert":null,"priority":null,"sound":null}"#)
        let content = PushRequestBody(end).content(now: Self.now)
        #expect(content.contentState == nil && content.alert == nil)
        #expect(content.requestedPriority == .conservesPower && content.importance == .routine)
    }

    @Test func aStartAndABatchItem() throws {
        let start = try body(
            "startForUser", Schemas.Start.self,
            #"{"contentState":{},"alert":{"sound":"default"},"priority":10,"attributesType":"Adventure","attributes":{"hero":"Cake"},"#
                + #""inputPushToken":true}"#)
        let content = PushRequestBody(start).content(now: Self.now)
        #expect(content.attributesType == "Adventure" && content.attributes == .object(["hero": "Cake"]) && content.inputPushToken)
        #expect(content.alert == LiveActivityAlert(sound: .default) && content.requestedPriority == .immediate)
        let batch = try body(
            "sendUpdates", Schemas.UpdateBatch.self,
            #"{"updates":[{"activityId":"a1","event":"update","contentState":{"n":1}},"#
                + #"{"activityId":"a2","event":"end","dismissalDate":0,"priority":5}]}"#)
        let items = PushBatchBody.items(batch, now: Self.now)
        #expect(items.map(\.activityID) == ["a1", "a2"] && items.map(\.kind) == [.update, .end])
        #expect(items[0].content.contentState == .object(["n": 1]))
        #expect(items[1].content.dismissalDate == Date(timeIntervalSince1970: 0) && items[1].content.contentState == nil)
    }

    /// A batch's items with only the common members are read straight from the checked value; each item, read
    /// so or decoded, is what the contract's decoding of its text gives.
    @Test func batchItemsReadDirectlyAreWhatTheContractDecodes() throws {
        let items = [
            #"{"activityId":"a1","event":"update","contentState":{"n":1,"s":"x","list":[1,null]}}"#,
            #"{"activityId":"a2","event":"end","contentState":null}"#,
            #"{"activityId":"a3","event":"end"}"#,
            #"{"activityId":"a4","event":"update","contentState":{},"priority":10,"collapseId":"c","relevanceScore":0.5}"#,
            #"{"activityId":"a5","event":"update","contentState":{},"importance":"time-sensitive","collapseId":null}"#,
            #"{"activityId":"a6","event":"update","contentState":{},"priority":5,"importance":"routine"}"#,
            #"{"activityId":"a7","event":"update","contentState":{},"alert":{"title":"T"},"staleDate":"+5m"}"#,
            #"{"activityId":"a8","event":"end","contentState":{},"dismissalDate":"+1m","sound":"default","expiration":"+1h"}"#,
        ]
        let json = #"{"updates":["# + items.joined(separator: ",") + "]}"
        // What the route reads (the contract's check, then each item read by hand or decoded), against the
        // generated decoding of the text.
        let checked = try body("sendUpdates", Schemas.UpdateBatch.self, json)
        let decoded = try APIJSON.decoder().decode(Schemas.UpdateBatch.self, from: Data(json.utf8))
        #expect(checked.updates == decoded.updates)
        let read = PushBatchBody.items(checked, now: Self.now)
        #expect(read.map(\.activityID) == (1...8).map { "a\($0)" })
        #expect(read.map(\.kind) == decoded.updates.map { $0.event == .end ? .end : .update })
        #expect(read[3].content.requestedPriority == .immediate && read[3].content.collapseID == "c" && read[3].content.relevanceScore == 0.5)
        #expect(read[4].content.importance == .timeSensitive && read[4].content.collapseID == nil)
        #expect(read[7].content.dismissalDate == Self.now.addingTimeInterval(60))
    }

    /// An alert kept as JSON (a Live Activity resource's, a renewal's) reads back as the alert it came as.
    @Test func aStoredAlertReadsBack() throws {
        let put = try body(
            "putLiveActivity", Schemas.LiveActivityPut.self,
            #"{"attributesType":"A","attributes":{},"contentState":{},"alert":{"title":{"locKey":"K"},"body":"b","sound":null}}"#)
        let stored = try #require(put.alert.map { JSONValue($0.value1) })
        #expect(stored == .object(["title": .object(["locKey": "K"]), "body": "b"]))
        #expect(LiveActivityAlert(stored: stored) == LiveActivityAlert(title: .localized(key: "K", arguments: []), body: "b"))
    }

    /// The decoder reads numbers as a default JSONDecoder does: an integer only from a whole number in range.
    @Test func integersOnlyFromWholeNumbers() throws {
        struct Counts: Decodable { var small: Int8?, whole: Int?, double: Double? }
        #expect(try JSONValueDecoder.decode(Counts.self, from: .object(["whole": 3, "double": 1.5])).whole == 3)
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Counts.self, from: .object(["whole": 1.5])) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Counts.self, from: .object(["small": 300])) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Counts.self, from: .object(["whole": "3"])) }
    }

    /// A type that reads itself from the checked value is read so wherever the decoder meets it: as the body,
    /// and as a member or an item of one (a batch's items), and falls back on its generated decoding.
    @Test func aHandReadTypeIsReadSoAtEveryDepth() throws {
        struct Probe: Decodable, JSONValueDecodable, Equatable {
            var how: String
            init(from decoder: any Decoder) throws { how = "generic" }
            init(checked value: JSONValue) throws {
                self = value == .string("fall back") ? try JSONValueDecoder.decodeGenerically(Self.self, from: value) : Probe(how: "checked")
            }
            init(how: String) { self.how = how }
        }
        struct Body: Decodable { var one: Probe, items: [Probe] }
        #expect(try JSONValueDecoder.decode(Probe.self, from: "x") == Probe(how: "checked"))
        let body = try JSONValueDecoder.decode(Body.self, from: .object(["one": "x", "items": ["y", "fall back"]]))
        #expect(body.one == Probe(how: "checked") && body.items == [Probe(how: "checked"), Probe(how: "generic")])
    }
}
