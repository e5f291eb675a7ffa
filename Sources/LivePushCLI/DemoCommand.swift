import ArgumentParser
import EmojiRangers
import Foundation
import Logging

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play an Emoji Rangers adventure end to end: simulator, server and simulated iPhones in one process.",
        discussion: """
            Starts the APNs simulator (with its dashboard), the LivePush server on SQLite in a temporary folder, \
            and one simulated iPhone per player. Each iPhone's app starts an adventure Live Activity and reports \
            its tokens to the server through LivePushKit; the adventure engine then pushes every event through the \
            server's group API. Prints a line per event and a summary; exits non-zero when a push did not arrive.
            """
    )

    @Option(help: "Pace multiplier: 2 plays twice as fast (0.1 to 1000).") var speed: Double = 1
    @Option(name: .customLong("party-size"), help: "Heroes in the party, one simulated iPhone each: 3 or 4.") var partySize = 4
    @Option(help: "The adventure's seed; the same seed plays the same adventure. Default: a random one (printed).")
    var seed: UInt64?
    @Flag(name: .customLong("keep-running"), help: "Keep the simulator and its dashboard up after the adventure, until Ctrl-C.")
    var keepRunning = false
    @Option(help: "The simulator's APNs port (0 picks a free one).") var port = 0
    @Option(name: .customLong("control-port"), help: "The simulator's control port, which serves the dashboard (0 picks a free one).")
    var controlPort = 0
    @Option(name: .customLong("server-port"), help: "The LivePush server's HTTP port (0 picks a free one).") var serverPort = 0
    @Option(help: "Simulated spectators, an iPhone each, started by one audience start joined to the party's broadcast channel (0 to 10000).")
    var spectators = DemoOptions().spectators
    @Flag(
        help: """
            Play past the 8-hour limit: 10 simulated hours on the simulator's clock, each hero's activity renewed \
            by push-to-start at 7h45m (a few real seconds).
            """)
    var long = false
    @Flag(help: "Show the components' info logs on stderr.") var verbose = false

    func options() -> DemoOptions {
        var options = DemoOptions()
        options.speed = speed
        options.partySize = partySize
        options.spectators = spectators
        options.seed = seed ?? UInt64.random(in: 1...999_999)
        options.apnsPort = port
        options.controlPort = controlPort
        options.serverPort = serverPort
        options.long = long
        return options
    }

    func validate() throws {
        do {
            try options().validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let options = options()
        var logger = Logger(label: "livepush.demo")
        // Problems show in the progress lines and the summary; the components' logs only with --verbose.
        logger.logLevel = verbose ? .info : .critical
        // One waiter for the whole run: Ctrl-C interrupts the adventure, or ends --keep-running. So does a
        // reader of the output that has gone (`livepush demo | head`), as SIGPIPE would end a plain tool.
        let interruptions = SignalWaiter(signals: [SIGINT, SIGTERM])
        let (stops, stop) = AsyncStream.makeStream(of: Int32.self)
        let forwarding = Task { stop.yield(await interruptions.wait()) }
        let interrupted = Task {
            for await number in stops { return number }
            return SIGTERM
        }
        defer {
            forwarding.cancel()
            interrupted.cancel()
        }
        let say: @Sendable (String) -> Void = { text in
            if !TerminalOutput.line(text) { stop.yield(SIGPIPE) }
        }
        let demo: EmojiRangersDemo
        do {
            demo = try await EmojiRangersDemo.start(options: options, logger: logger)
        } catch {
            throw CommandFailure(error.description)
        }
        say(
            """
            Emoji Rangers: a party of \(options.partySize) heroes, seed \(options.seed) (replay with --seed \(options.seed)), \
            \(options.long ? "long: \(DemoOptions.longHours) simulated hours, renewed at \(DemoOptions.renewBefore)" : "speed \(options.speed)")
              Dashboard:      \(demo.dashboardURL)
              LivePush API:   \(demo.serverURL)   (SQLite in \(demo.dataDirectory))
              APNs simulator: \(demo.apnsURL)

            """)
        let playing = Task { try await demo.play { say($0.line) } }
        let stopper = Task {
            _ = await interrupted.value
            playing.cancel()
        }
        let result = await playing.result
        stopper.cancel()
        if playing.isCancelled {
            // `interrupted` has its value: it cancelled `playing`.
            let readerGone = await interrupted.value == SIGPIPE
            if !readerGone { say("interrupted, shutting down…") }
            await demo.shutdown()
            throw ExitCode(readerGone ? 128 + SIGPIPE : 130)
        }
        let summary: DemoSummary
        switch result {
        case .success(let value):
            summary = value
        case .failure(let error):
            await demo.shutdown()
            throw CommandFailure("\(error)")
        }
        say("")
        for line in summary.lines { say(line) }
        if keepRunning {
            say("\nThe dashboard stays up at \(demo.dashboardURL); press Ctrl-C to stop.")
            _ = await interrupted.value
            say("shutting down…")
        }
        await demo.shutdown()
        if !summary.succeeded { throw ExitCode.failure }
    }
}
