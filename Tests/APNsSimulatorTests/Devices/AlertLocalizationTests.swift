import APNsCore
import APNsSimulator
import Foundation
import LiveActivity
import Testing

@Suite struct AlertLocalizationTests {
    @Test func localizedAlertResolvesSequentialAndPositionalArguments() async throws {
        let fixture = try await DeviceWorldFixture(localizations: [
            "KNOCKED_DOWN": "%@ is knocked down by %@!",
            "HEAL": "Heal %2$@ with %1$@ (100%%)",
        ])
        let aps = DeviceWorldFixture.update(
            fixture.now,
            extra: [
                "alert": [
                    "title": ["loc-key": "KNOCKED_DOWN", "loc-args": ["Power Panda", "Cake"]],
                    "body": ["loc-key": "HEAL", "loc-args": ["a potion", "Power Panda"]],
                    "sound": "HeroDown.mp4",
                ]
            ])
        _ = await fixture.world.deliver(fixture.push(aps))
        let alert = try #require(try await fixture.activity().alerts.last)
        #expect(alert.title == "Power Panda is knocked down by Cake!")
        #expect(alert.body == "Heal Power Panda with a potion (100%)")
        #expect(alert.sound == "HeroDown.mp4")
    }

    @Test func keyMissingFromTheTableIsUsedAsTheFormat() async throws {
        let fixture = try await DeviceWorldFixture()
        let aps = DeviceWorldFixture.update(
            fixture.now,
            extra: [
                "alert": [
                    "title": ["loc-key": "%@ is knocked down!", "loc-args": ["Power Panda"]],
                    "body": "Plain body",
                ]
            ])
        _ = await fixture.world.deliver(fixture.push(aps))
        let alert = try #require(try await fixture.activity().alerts.last)
        #expect(alert.title == "Power Panda is knocked down!")
        #expect(alert.body == "Plain body")
        #expect(alert.sound == nil)
    }

    @Test func alertOfADroppedUpdateIsNotShown() async throws {
        let fixture = try await DeviceWorldFixture()
        let aps = DeviceWorldFixture.update(fixture.now - 100, extra: ["alert": ["title": "Late"]])
        _ = await fixture.world.deliver(fixture.push(DeviceWorldFixture.update(fixture.now)))
        _ = await fixture.world.deliver(fixture.push(aps))
        #expect(try await fixture.activity().alerts.isEmpty)
    }
}
