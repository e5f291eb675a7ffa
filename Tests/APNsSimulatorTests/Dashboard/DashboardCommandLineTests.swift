import Foundation
import LiveActivity
import LivePushTesting
import Testing

@testable import APNsSimulator

/// The dashboard as Chromium's command line renders it after a run: `--virtual-time-budget --dump-dom`
/// and `--screenshot`. Virtual time stands still while a fetch is pending, and the page keeps the event
/// stream open, so the simulator is stopped once both pages follow the stream: the page then backs off
/// to reconnect, virtual time runs out, and Chromium writes what the page shows. Two browsers load the
/// machine: the suite runs while no other test's simulator does.
@Suite(.exclusive) struct DashboardCommandLineTests {
    @Test(.chromiumInstalled)
    func dumpDomAndScreenshotAfterARun() async throws {
        let binary = try HeadlessChromium.installed()
        try await withDashboardScene { scene in
            let world = scene.world
            let device = try await world.addDevice(
                DeviceRegistration(name: "Zoe's iPhone", bundleID: DashboardScene.bundleID, environment: "sandbox"))
            func adventure(_ hero: String, relevance: Double) async throws -> ActivityCreated {
                try await world.startActivity(
                    deviceID: device.deviceID,
                    ActivityRequest(
                        attributesType: "AdventureAttributes", attributes: ["hero": .string(hero)],
                        contentState: ["currentHealthLevel": 1.0, "eventDescription": "Ready"], relevanceScore: relevance))
            }
            let panda = try await adventure("Power Panda", relevance: 10)
            let spouty = try await adventure("Spouty", relevance: 5)
            let now = Date().timeIntervalSince1970.rounded(.down)
            try await scene.pushAdventure(
                to: panda.pushToken, priority: 10, at: now, health: 0.25, "Power Panda is knocked down!",
                extra: ["alert": ["title": ["loc-key": "%@ is knocked down!", "loc-args": ["Power Panda"]], "sound": "HeroDown.caf"]])
            try await scene.pushAdventure(
                to: panda.pushToken, priority: 5, at: now + 1, health: 0.25, "Power Panda lost connection", extra: ["stale-date": .number(now - 10)])
            try await scene.pushAdventure(
                "end", to: spouty.pushToken, priority: 10, at: now + 2, health: 0.5, "Adventure over", extra: ["dismissal-date": .number(now + 600)])
            try await scene.pushAdventure(to: spouty.pushToken, priority: 5, at: now + 3, health: 0.1, "Too late")
            #expect(try await scene.waitForLog(count: 4).count == 4)

            try await withTemporaryDirectory(prefix: "livepush-cli") { folder in
                let screenshotPath = folder.appendingPathComponent("dashboard.png").path
                let common = ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--hide-scrollbars"]
                let dump = try CommandLineChromium(binary, common + ["--user-data-dir=\(folder.path)/dump", "--dump-dom", scene.dashboardURL])
                let shot = try CommandLineChromium(
                    binary,
                    common + [
                        "--user-data-dir=\(folder.path)/shot", "--window-size=1280,1000", "--screenshot=\(screenshotPath)", scene.dashboardURL,
                    ])

                // Both pages have rendered the GET routes once they subscribe to the event stream. A browser
                // that ends before that ends the wait too (the bound is only a hang guard).
                await eventually(timeout: .seconds(600), every: .milliseconds(50)) {
                    world.events.subscriberCount >= 2 || !dump.isRunning || !shot.isRunning
                }
                #expect(world.events.subscriberCount >= 2, "both pages follow the event stream")
                // The pages' event streams end with the simulator, and with them the command-line runs.
                await scene.simulator.shutdown()

                let html = try await dump.finish()
                _ = try await shot.finish()
                #expect(html.contains("Zoe's iPhone"))
                #expect(html.contains(">Power Panda</h4>"))
                #expect(html.contains(#"aria-valuenow="25""#))
                #expect(html.contains("width: 25%"))
                #expect(html.contains("Power Panda lost connection"))
                #expect(html.contains(#"class="badge badge-stale">stale<"#))
                #expect(html.contains(#"class="badge badge-ended">ended<"#))
                #expect(html.contains("Adventure over"))
                #expect(html.contains(#"<span class="alert-text">Power Panda is knocked down!</span>"#))
                #expect(html.contains("🔊 HeroDown.caf"))
                #expect(html.contains("ignored (after end)"))
                #expect(html.contains("the activity ended at"), "the ignored push's reason is shown")
                #expect(html.contains(#"data-state="reconnecting""#), "the indicator shows the dropped stream")
                let png = try Data(contentsOf: URL(fileURLWithPath: screenshotPath))
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a PNG of the page")
            }
        }
    }
}

/// One `chromium --headless …` run whose standard output is collected (on its own thread, so a large
/// dump never blocks the browser).
final class CommandLineChromium: @unchecked Sendable {
    private let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var collected: Data?

    init(_ binary: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = output.fileHandleForReading
        Thread { [self] in
            let bytes = handle.readDataToEndOfFile()
            lock.withLock { collected = bytes }
        }.start()
    }

    /// Whether the browser is still running.
    var isRunning: Bool { process.isRunning }

    /// Waits for the run to end and returns its output; after `seconds` (a hang guard) it is stopped.
    func finish(seconds: Double = 300) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        if process.isRunning { process.terminate() }
        while lock.withLock({ collected == nil }), Date() < deadline.addingTimeInterval(10) {
            try await Task.sleep(for: .milliseconds(50))
        }
        return String(decoding: lock.withLock { collected ?? Data() }, as: UTF8.self)
    }
}
