import Foundation
import LiveActivity
import LivePushTesting
import Testing

/// Chromium in headless mode, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands are read from fd 3 and answers written to fd 4, each message one NUL-terminated JSON object).
/// The pipe lets a test wait in real time for what the page shows, which `--virtual-time-budget
/// --dump-dom` cannot do for a page that keeps an event stream open: virtual time never advances while a
/// fetch is pending, so the dump would never come.
final class HeadlessChromium: @unchecked Sendable {
    /// The binaries looked for on PATH, in order.
    static let candidates = ["chromium", "chromium-browser", "google-chrome"]

    /// The first candidate on PATH, or nil.
    static let binary: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in candidates {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Why a browser test did not run, and how to make it run.
    static let missingMessage =
        "no chromium, chromium-browser or google-chrome on PATH: run scripts/install-chromium.sh to enable the dashboard browser test"

    /// The browser on PATH, for a test marked `.chromiumInstalled` (which does not run without one).
    static func installed() throws -> String {
        guard let binary else { throw Failure.missing }
        return binary
    }

    enum Failure: Error, CustomStringConvertible {
        case missing
        case exited
        case protocolError(method: String, message: String)
        case unexpectedAnswer(method: String, answer: String)

        var description: String {
            switch self {
            case .missing: return HeadlessChromium.missingMessage
            case .exited: return "chromium exited"
            case .protocolError(let method, let message): return "DevTools \(method) failed: \(message)"
            case .unexpectedAnswer(let method, let answer): return "DevTools \(method) answered \(answer)"
            }
        }
    }

    private let process: ChildProcess
    private let commands: FileHandle
    private let answers: FileHandle
    private let profile: URL
    private let lock = NSLock()
    private var nextID = 0
    private var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
    private var exited = false
    private var session: String?
    private var page: String?
    private var cover: String?

    private init(process: ChildProcess, commands: FileHandle, answers: FileHandle, profile: URL) {
        self.process = process
        self.commands = commands
        self.answers = answers
        self.profile = profile
    }

    /// Runs `body` with a browser (a fresh profile, a window of the given size), and closes it afterwards,
    /// whatever `body` does.
    @discardableResult
    static func with<Result>(
        binary: String? = nil, width: Int = 1440, height: Int = 1000, isolation: isolated (any Actor)? = #isolation,
        _ body: (HeadlessChromium) async throws -> Result
    ) async throws -> Result {
        try await withScopedResource {
            try launch(binary: binary ?? installed(), width: width, height: height)
        } stop: { browser in
            await browser.close()
        } _: { browser in
            try await body(browser)
        }
    }

    /// Starts the browser with a fresh profile and a window of the given size.
    private static func launch(binary: String, width: Int = 1440, height: Int = 1000) throws -> HeadlessChromium {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("livepush-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let arguments = [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)", "--hide-scrollbars",
            "--force-color-profile=srgb", "--no-first-run", "--lang=en-US", "about:blank",
        ]
        // The shell moves the pipes to fds 3 and 4 (the child gets only 0, 1 and 2).
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = environment["TZ"] ?? "UTC"
        let process = try ChildProcess.launch(
            "/bin/sh", ["-c", "exec \(quoted) 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null"], environment: environment,
            pipeInput: true, pipeOutput: true)
        guard let commands = process.standardInput, let answers = process.standardOutput else {
            preconditionFailure("launched with pipeInput and pipeOutput")
        }
        let browser = HeadlessChromium(process: process, commands: commands, answers: answers, profile: profile)
        let reader = Thread { browser.readAnswers() }
        reader.start()
        return browser
    }

    /// Opens a page in a new tab and attaches to it; later commands go to that tab.
    func open(_ url: String) async throws {
        let created = try await send("Target.createTarget", ["url": "about:blank"], toPage: false)
        guard let target = created["targetId"]?.stringValue else {
            throw Failure.unexpectedAnswer(method: "Target.createTarget", answer: created.description)
        }
        let attached = try await send("Target.attachToTarget", ["targetId": .string(target), "flatten": true], toPage: false)
        guard let session = attached["sessionId"]?.stringValue else {
            throw Failure.unexpectedAnswer(method: "Target.attachToTarget", answer: attached.description)
        }
        lock.withLock {
            self.session = session
            self.page = target
        }
        _ = try await send("Page.enable")
        _ = try await send("Page.navigate", ["url": .string(url)])
    }

    /// Hides the page the way a user does, by opening another tab in front of it: the page's
    /// `document.visibilityState` becomes `hidden` and it gets `visibilitychange`.
    func hidePage() async throws {
        let created = try await send("Target.createTarget", ["url": "about:blank"], toPage: false)
        guard let target = created["targetId"]?.stringValue else {
            throw Failure.unexpectedAnswer(method: "Target.createTarget", answer: created.description)
        }
        lock.withLock { cover = target }
    }

    /// Shows the page again: closes the tab opened in front of it and brings the page forward.
    func showPage() async throws {
        let (cover, page) = lock.withLock { (self.cover, self.page) }
        if let cover { _ = try await send("Target.closeTarget", ["targetId": .string(cover)], toPage: false) }
        if let page { _ = try await send("Target.activateTarget", ["targetId": .string(page)], toPage: false) }
        lock.withLock { self.cover = nil }
    }

    /// The value of a JavaScript expression in the page (promises are awaited).
    func evaluate(_ expression: String) async throws -> JSONValue {
        let answer = try await send(
            "Runtime.evaluate",
            [
                "expression": .string(expression), "returnByValue": true, "awaitPromise": true,
            ])
        if let exception = answer["exceptionDetails"] {
            throw Failure.protocolError(method: "Runtime.evaluate", message: "\(expression): \(exception)")
        }
        return answer["result"]?["value"] ?? .null
    }

    /// Evaluates `expression` until it is true; false after `seconds` (a hang guard, not a speed check).
    func waitUntil(_ expression: String, seconds: Double = 30) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? await evaluate("Boolean(\(expression))"))?.boolValue == true { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A PNG of the whole page.
    func screenshot() async throws -> Data {
        let answer = try await send("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true])
        guard let base64 = answer["data"]?.stringValue, let data = Data(base64Encoded: base64) else {
            throw Failure.unexpectedAnswer(method: "Page.captureScreenshot", answer: "no image data")
        }
        return data
    }

    /// Closes the browser and waits for it to exit.
    private func close() async {
        _ = try? await send("Browser.close", toPage: false)
        var checks = 0
        while process.isRunning, checks < 100 {
            try? await Task.sleep(for: .milliseconds(50))
            checks += 1
        }
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends one command and waits for its answer's `result`.
    func send(_ method: String, _ parameters: [String: JSONValue] = [:], toPage: Bool = true) async throws -> JSONValue {
        let message: JSONValue = try await withCheckedThrowingContinuation { continuation in
            let (id, session, gone): (Int, String?, Bool) = lock.withLock {
                nextID += 1
                if !exited { waiting[nextID] = continuation }
                return (nextID, self.session, exited)
            }
            if gone {
                continuation.resume(throwing: Failure.exited)
                return
            }
            var command: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": .object(parameters)]
            if toPage, let session { command["sessionId"] = .string(session) }
            var bytes = JSONValue.object(command).serialized()
            bytes.append(0)
            commands.write(bytes)
        }
        if let error = message["error"] {
            throw Failure.protocolError(method: method, message: error["message"]?.stringValue ?? error.description)
        }
        return message["result"] ?? .object([:])
    }

    /// Runs on its own thread: splits the answers at NUL bytes and hands each to the command waiting for it.
    private func readAnswers() {
        var buffer = Data()
        while true {
            let chunk = answers.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[buffer.index(after: end)...])
                guard let parsed = try? JSONValue.parse(Data(message)), let id = parsed["id"]?.numberValue else { continue }
                let continuation = lock.withLock { waiting.removeValue(forKey: Int(id)) }
                continuation?.resume(returning: parsed)
            }
        }
        let pending = lock.withLock {
            exited = true
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for continuation in pending { continuation.resume(throwing: Failure.exited) }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where a headless Chromium is on PATH (scripts/install-chromium.sh installs it).
    static var chromiumInstalled: Self { .enabled(if: HeadlessChromium.binary != nil, Comment(rawValue: HeadlessChromium.missingMessage)) }
}
