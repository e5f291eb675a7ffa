import Foundation
import Testing

@testable import PushStore

@Suite("PushStore conformance: broadcast channels")
struct ChannelConformanceTests {
    static func channel(_ name: String, bundle: String = "com.example.app", group: String? = nil) -> ChannelRecord {
        ChannelRecord(name: name, bundleID: bundle, apnsChannelID: "apns-\(name)", storagePolicy: 1, groupID: group, createdAt: Fixture.start)
    }

    @Test(arguments: StoreKind.available)
    func channelsAreNamedListedLinkedAndDeleted(kind: StoreKind) async throws {
        try await withStore(kind) { store, _ in
            let match = try await store.createChannel(Self.channel("match", group: "fans"))
            _ = try await store.createChannel(Self.channel("other", bundle: "com.example.other"))
            #expect(
                await caught { try await store.createChannel(Self.channel("match")) }.map { if case .conflict = $0 { true } else { false } } == true,
                "names are unique among a bundle's live channels")
            #expect(try await store.channel(id: match.id) == match)
            #expect(try await store.channel(named: "match", bundleID: "com.example.app") == match)
            #expect(try await store.channel(named: "match", bundleID: "com.example.other") == nil)
            #expect(try await store.channels(bundleID: "com.example.app").map(\.name) == ["match"])
            #expect(try await store.channels(bundleID: nil).count == 2)
            #expect(try await store.channels(linkedToGroup: "fans").map(\.id) == [match.id])
            #expect(try await store.channelCount(bundleID: "com.example.app") == 1)

            let deleted = try await store.markChannelDeleted(id: match.id, at: Fixture.start + 5)
            #expect(deleted.deletedAt == Fixture.start + 5)
            #expect(try await store.markChannelDeleted(id: match.id, at: Fixture.start + 9).deletedAt == Fixture.start + 5, "the first date stays")
            #expect(try await store.channel(named: "match", bundleID: "com.example.app") == nil, "a deleted channel frees its name")
            #expect(try await store.channelCount(bundleID: "com.example.app") == 0)
            #expect(try await store.channels(linkedToGroup: "fans").isEmpty)
            #expect(try await store.createChannel(Self.channel("match")).name == "match")
            #expect(await caught { try await store.markChannelDeleted(id: UUID(), at: Fixture.start) } != nil)
            #expect(
                await caught {
                    try await store.createChannel(
                        ChannelRecord(name: "p", bundleID: "b", apnsChannelID: "x", storagePolicy: 2, createdAt: Fixture.start))
                }?.invalidField == "storagePolicy")
        }
    }
}
