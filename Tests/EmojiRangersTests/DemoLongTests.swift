import APNsSimulator
import EmojiRangers
import Foundation
import LiveActivity
import LivePushTesting
import Logging
import Testing

/// `livepush demo --long` in-process: the party plays past the 8-hour limit on the simulator's clock and
/// each hero's activity is renewed by push-to-start, checked from the summary and the simulator's world.
@Suite struct DemoLongTests {
    @Test func theLongAdventureRenewsEveryHeroAndLosesNoUpdate() async throws {
        var options = DemoOptions()
        options.long = true
        options.partySize = 4
        options.seed = 3
        try await withDemo(options) { demo in
            var lines: [String] = []
            let summary = try await demo.play { lines.append($0.line) }
            let text = summary.lines.joined(separator: "\n")
            #expect(summary.succeeded, "\(lines.joined(separator: "\n"))\n\(text)")
            // Ten hourly updates to 4 heroes, two of them (8h, 9h… 10h: three) after the renewal at 7h45m.
            let renewals = try #require(summary.renewals)
            #expect(renewals.heroes == 4 && renewals.renewed == 4 && renewals.failures.isEmpty, "\(renewals)")
            #expect(renewals.updatesAfterRenewal == 4 * 3 && renewals.appliedAfterRenewal == 4 * 3, "\(renewals)")
            #expect(summary.lines.contains("  renewals: 4 of 4 heroes renewed at 7h45m, 0 failed; updates after renewal: 12, all applied"), "\(text)")
            #expect(summary.pushes == 4 * (DemoOptions.longHours + 1) && summary.applied == summary.pushes, "no update was lost: \(text)")
            #expect(summary.problems.isEmpty && summary.decodeFailures == 0, "\(text)")
            #expect(lines.filter { $0.contains("renewed by push-to-start") }.count == 4, "\(lines.joined(separator: "\n"))")
            // The app's reporters registered the new activities: two adventures and a side quest per iPhone.
            let tokens = try #require(summary.tokens)
            #expect(tokens.activityTokens == 12 && tokens.pending == 0 && tokens.refused == 0, "\(tokens)")

            // On each iPhone: the first adventure ended by the server at the renewal with the 7-hour state,
            // the renewed one took every later update and ended with the final state.
            let world = demo.simulator.world
            for hero in summary.heroes {
                let device = try await world.device(id: hero.deviceID)
                let adventures = device.activities.filter { $0.attributesType == EmojiRangersDemo.attributesType }.sorted {
                    $0.startedAt < $1.startedAt
                }
                #expect(adventures.count == 2, "\(device.name): \(adventures.map(\.activityID))")
                guard adventures.count == 2 else { continue }
                let (first, renewed) = (adventures[0], adventures[1])
                #expect(renewed.activityID == hero.activityID)
                #expect(first.state == .ended && first.endedBy == .push, "\(device.name): \(first.state)")
                #expect(first.contentState["eventDescription"] == "Hour 7: the party presses on")
                #expect(renewed.attributes == first.attributes, "started with the same attributes")
                #expect(renewed.alerts.contains { $0.title == "The quest goes on" }, "the start's alert")
                #expect(renewed.state == .ended && renewed.endedBy == .push)
                #expect(renewed.contentState["eventDescription"] == "The long quest is over after 10 hours")
                #expect(renewed.history.first?.outcome.kind == .started, "started by the push-to-start: \(renewed.history.map(\.outcome))")
                #expect(renewed.history.dropFirst().allSatisfy { $0.outcome.kind == .applied }, "\(renewed.history.map(\.outcome))")
                let shown = renewed.history.compactMap { $0.payload["aps"]?["content-state"]?["eventDescription"]?.stringValue }
                #expect(
                    ["Hour 8: the party presses on", "Hour 9: the party presses on", "Hour 10: the party presses on"].allSatisfy(shown.contains),
                    "\(shown)")
            }
        }
    }
}
