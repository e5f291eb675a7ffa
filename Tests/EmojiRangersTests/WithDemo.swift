import EmojiRangers
import LivePushTesting
import Logging

/// Runs `body` with the demo started with `options` (logging only what is critical), and shuts it down
/// (simulator, server, folder) afterwards, whatever `body` does.
func withDemo<Result>(
    _ options: DemoOptions, isolation: isolated (any Actor)? = #isolation, _ body: (EmojiRangersDemo) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "emoji-rangers.test")
    logger.logLevel = .critical
    return try await withScopedResource {
        try await EmojiRangersDemo.start(options: options, logger: logger)
    } stop: { demo in
        await demo.shutdown()
    } _: { demo in
        try await body(demo)
    }
}
