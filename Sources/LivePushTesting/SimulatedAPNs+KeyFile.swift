import APNsAuth
import Foundation

extension SimulatedAPNs {
    /// Writes the provider key the simulator trusts as a `.p8` file in `folder` (as Apple hands it out,
    /// `AuthKey_<key id>.p8` unless `name` says otherwise) and returns its path: for a tool or server that
    /// reads its key from a file, as `livepush send --key-file` does, with ``keyID`` and ``teamID``.
    public func writeSigningKey(into folder: URL, name: String? = nil) throws -> String {
        let path = folder.appendingPathComponent(name ?? "AuthKey_\(keyID).p8").path
        try signingKey.write(toFile: path, overwrite: false)
        return path
    }
}
