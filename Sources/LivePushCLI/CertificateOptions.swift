import APNsClient
import ArgumentParser
import Foundation

/// `--cert-file` and `--cert-key-file`: a provider certificate instead of a `.p8` key.
struct CertificateOptions: ParsableArguments {
    @Option(
        name: .customLong("cert-file"),
        help:
            "A provider certificate (PEM) to authenticate with instead of a .p8 key; needs --cert-key-file. Not for Live Activity pushes, which need a .p8 key."
    )
    var certificateFile: String?
    @Option(name: .customLong("cert-key-file"), help: "The private key (PEM) of --cert-file.")
    var keyFile: String?

    /// True when either flag is given.
    var isProvided: Bool { certificateFile != nil || keyFile != nil }

    /// Both flags or neither, and not together with the token flags.
    func validate(against credentials: CredentialOptions) throws {
        guard isProvided else { return }
        let tokenFlags = [
            credentials.keyFile.map { _ in "--key-file" }, credentials.keyID.map { _ in "--key-id" },
            credentials.teamID.map { _ in "--team-id" },
        ].compactMap { $0 }
        if !tokenFlags.isEmpty {
            throw ValidationError(
                "\(tokenFlags.joined(separator: ", ")) and --cert-file/--cert-key-file are two ways to authenticate; give "
                    + "either a .p8 key (--key-file, --key-id, --team-id) or a certificate (--cert-file, --cert-key-file), not both"
            )
        }
        if certificateFile == nil {
            throw ValidationError("--cert-key-file needs --cert-file: the provider certificate (PEM) the key belongs to")
        }
        if keyFile == nil {
            throw ValidationError("--cert-file needs --cert-key-file: the certificate's private key (PEM)")
        }
    }

    /// The certificate for the client, once both files are readable; nil when no flag is given.
    func resolve() throws -> APNsClientCertificate? {
        guard let certificateFile, let keyFile else { return nil }
        let paths = (certificate: NSString(string: certificateFile).expandingTildeInPath, key: NSString(string: keyFile).expandingTildeInPath)
        for (flag, path) in [("--cert-file", paths.certificate), ("--cert-key-file", paths.key)] {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw CommandFailure("\(flag): '\(path)' does not exist or is not readable")
            }
        }
        return APNsClientCertificate(certificateChainFile: paths.certificate, privateKeyFile: paths.key)
    }
}
