import Logging

/// `livepush serve`'s log lines: exactly what swift-log's `StreamLogHandler` writes, with the metadata put
/// into words only when a line is written. `StreamLogHandler` formats its whole metadata each time an entry
/// changes, and the server's HTTP layer sets one (the request id) on every request, logged or not.
struct ServerLogHandler: LogHandler {
    /// Writes the lines; its own metadata stays empty, so setting it never formats anything.
    private var lines: StreamLogHandler
    var metadata = Logger.Metadata()
    var logLevel: Logger.Level

    var metadataProvider: Logger.MetadataProvider? {
        get { lines.metadataProvider }
        set { lines.metadataProvider = newValue }
    }

    /// Lines on standard error.
    init(label: String, logLevel: Logger.Level) {
        self.init(lines: StreamLogHandler.standardError(label: label), logLevel: logLevel)
    }

    /// Lines on `stream` (tests).
    init(label: String, stream: any TextOutputStream & Sendable, logLevel: Logger.Level) {
        self.init(lines: StreamLogHandler(label: label, stream: stream), logLevel: logLevel)
    }

    private init(lines: StreamLogHandler, logLevel: Logger.Level) {
        self.lines = lines
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        // The line's own entries win over the logger's, as in `StreamLogHandler`.
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { _, line in line } }
        lines.log(event: event)
    }
}
