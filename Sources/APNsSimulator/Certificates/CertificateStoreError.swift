/// Why the simulator's certificates could not be read, made or written.
public enum CertificateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case cannotIssue(reason: String)
    /// A provider certificate was asked for an empty bundle id or one with characters a topic cannot hold.
    case invalidBundleID(String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create the simulator data directory \(path): \(reason); pass another one with --data-dir or LIVEPUSH_SIMULATOR_DIR"
        case .cannotWrite(let path, let reason):
            return "cannot write \(path): \(reason); check the data directory's permissions"
        case .cannotIssue(let reason):
            return "cannot create the simulator's certificates: \(reason)"
        case .invalidBundleID(let bundleID):
            return "'\(bundleID)' is not a bundle id; expected letters, digits, '.', '-' and '_', e.g. com.example.app"
        }
    }
}
