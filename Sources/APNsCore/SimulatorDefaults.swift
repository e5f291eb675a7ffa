import Foundation

/// Where `livepush simulator` keeps its certificates unless told otherwise: for the messages that tell a
/// client which CA to trust, with the path as it is on this machine.
public enum SimulatorDefaults {
    /// `$LIVEPUSH_SIMULATOR_DIR`, else `~/.livepush/simulator` (HOME expanded), else (no HOME)
    /// `./.livepush/simulator` (the working directory expanded).
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["LIVEPUSH_SIMULATOR_DIR"], !explicit.isEmpty { return explicit }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".livepush/simulator").path
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".livepush/simulator").path
    }

    /// The CA a client passes as `--ca-file` to reach a simulator started without `--data-dir`.
    public static func caCertificatePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        URL(fileURLWithPath: dataDirectory(environment: environment)).appendingPathComponent("ca.pem").path
    }
}
