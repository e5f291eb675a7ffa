import Foundation

/// Where the simulator keeps its CA and server certificate.
public enum SimulatorDataDirectory {
    /// `$LIVEPUSH_SIMULATOR_DIR`, else `~/.livepush/simulator`, else (no HOME) `./.livepush/simulator`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LIVEPUSH_SIMULATOR_DIR"], !explicit.isEmpty { return explicit }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".livepush/simulator").path
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".livepush/simulator").path
    }
}
