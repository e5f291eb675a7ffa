import Foundation
import LiveActivity

/// The Emoji Rangers content state from WWDC23 session 10185.
struct RangerState: Codable, Equatable {
    var currentHealthLevel: Double
    var eventDescription: String
}

/// The push-to-start walkthrough's content state and attributes.
struct EmojiState: Codable, Equatable {
    var emoji: String
}

struct EmojiAttributes: Codable, Equatable {
    var name: String
}

enum Fixtures {
    /// Tests/LiveActivityTests/Fixtures/Vectors: the payload vectors (see the README.md there).
    static let vectorsDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Vectors", isDirectory: true)
        .standardizedFileURL

    static func vector(_ name: String) throws -> Data {
        try Data(contentsOf: vectorsDirectory.appendingPathComponent(name))
    }

    static func unix(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}
