import Foundation

/// The journal on disk: one JSON file per app, in a folder of the app's container. Every change is
/// written whole to a temporary file that then replaces the old one, so a crash leaves the old state or
/// the new one, never half of either.
struct JournalFile: Sendable {
    /// The file's name in the folder the app gives.
    static let fileName = "LivePushKit-journal.json"

    let url: URL

    init(directory: URL) {
        url = directory.appendingPathComponent(Self.fileName, isDirectory: false)
    }

    /// The journal as last written, or nil when there is none yet.
    func read() throws(LivePushKitError) -> JournalState? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            throw .journal(path: url.path, problem: "cannot be read: \(error.localizedDescription)")
        }
        do {
            return try Self.decoder().decode(JournalState.self, from: data)
        } catch {
            throw .journal(path: url.path, problem: "is not a LivePushKit journal: \(error)")
        }
    }

    /// Replaces the journal with `state`, atomically.
    func write(_ state: JournalState) throws(LivePushKitError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.encoder().encode(state).write(to: url, options: [.atomic])
        } catch {
            throw .journal(path: url.path, problem: "cannot be written: \(error.localizedDescription)")
        }
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
