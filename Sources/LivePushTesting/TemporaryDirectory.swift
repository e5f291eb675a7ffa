import Foundation

/// Runs `body` with a new empty folder under the system's temporary folder, and deletes the folder with
/// everything in it afterwards, whatever `body` does.
///
/// ```swift
/// try await withTemporaryDirectory { folder in
///     let keyFile = folder.appendingPathComponent("dev.p8")
///     …
/// }
/// ```
public func withTemporaryDirectory<Result>(
    isolation: isolated (any Actor)? = #isolation,
    prefix: String = "livepush-test",
    _ body: (URL) async throws -> Result
) async throws -> Result {
    try await withScopedResource {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().lowercased)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    } stop: { folder in
        try? FileManager.default.removeItem(at: folder)
    } _: { folder in
        try await body(folder)
    }
}
