import Logging
import Synchronization
import Testing

@testable import LivePushCLI

/// `livepush serve`'s handler writes the lines `StreamLogHandler` writes, the logger's metadata included.
@Suite struct ServerLogHandlerTests {
    /// The lines written, each without its timestamp (the two handlers may write theirs a second apart).
    final class Lines: TextOutputStream, Sendable {
        private let written = Mutex<[String]>([])
        func write(_ string: String) {
            let line = string.split(separator: " ", maxSplits: 1).last.map(String.init) ?? string
            written.withLock { $0.append(line) }
        }
        var all: [String] { written.withLock { $0 } }
    }

    @Test func itWritesWhatStreamLogHandlerWrites() {
        let ours = Lines()
        let theirs = Lines()
        var loggers = [
            Logger(label: "livepush.serve") { ServerLogHandler(label: $0, stream: ours, logLevel: .info) },
            Logger(label: "livepush.serve") { StreamLogHandler(label: $0, stream: theirs) },
        ]
        for index in loggers.indices {
            loggers[index][metadataKey: "hb.request.id"] = "42"
            loggers[index][metadataKey: "activityId"] = "hero-1"
            loggers[index].info("no entries of its own")
            // The line's entry wins over the logger's of the same key.
            loggers[index].info("entries of its own", metadata: ["activityId": "hero-2", "count": "3"])
            loggers[index].debug("below the level")
        }
        #expect(ours.all.count == 2)
        #expect(ours.all == theirs.all)
        #expect(ours.all.last == "info livepush.serve: activityId=hero-2 count=3 hb.request.id=42 [LivePushCLITests] entries of its own\n")
    }

    @Test func aLoggerWithoutMetadataWritesNone() {
        let ours = Lines()
        let logger = Logger(label: "livepush.store") { ServerLogHandler(label: $0, stream: ours, logLevel: .debug) }
        logger.debug("opened")
        #expect(ours.all == ["debug livepush.store: [LivePushCLITests] opened\n"])
    }
}
