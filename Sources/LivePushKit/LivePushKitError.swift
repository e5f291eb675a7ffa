/// What stops LivePushKit from starting or from reporting.
public enum LivePushKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The journal file cannot be read or written.
    case journal(path: String, problem: String)
    /// A setting is not usable: which one, and why.
    case configuration(field: String, message: String)
    /// The app's credential closure failed, or the server refused to open or renew an installation.
    case credential(message: String)

    public var description: String {
        switch self {
        case .journal(let path, let problem): "the LivePushKit journal \(path) \(problem)"
        case .configuration(let field, let message): "LivePushKit setting '\(field)': \(message)"
        case .credential(let message): "LivePushKit credential: \(message)"
        }
    }
}
