import APNsCore
import Foundation

/// Where the simulator keeps its CA and server certificate.
public enum SimulatorDataDirectory {
    /// `$LIVEPUSH_SIMULATOR_DIR`, else `~/.livepush/simulator`, else (no HOME) `./.livepush/simulator`
    /// (`SimulatorDefaults`, which clients' messages name too).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        SimulatorDefaults.dataDirectory(environment: environment)
    }
}
