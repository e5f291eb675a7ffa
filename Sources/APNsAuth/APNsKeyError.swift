/// Why a `.p8` provider key could not be loaded. Descriptions name the file and the rule that failed,
/// never any key material.
public enum APNsKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file exists at the path.
    case fileNotFound(path: String)
    /// The file exists but could not be read (permissions, a directory, not UTF-8 text, …).
    case fileUnreadable(path: String, reason: String)
    /// The input is empty or only whitespace.
    case empty
    /// No `-----BEGIN …-----` / `-----END …-----` block was found.
    case notPEM
    /// A PEM block was found, but it holds something other than a private key (the label is kept).
    case unsupportedPEMLabel(String)
    /// The text between the PEM lines is not valid base64.
    case badBase64
    /// An elliptic-curve key on a curve other than P-256 (the curve's name is kept).
    case wrongCurve(String)
    /// A private key that is not an elliptic-curve key (the algorithm's name is kept when known).
    case notECKey(String)
    /// The PEM block decodes, but not to a P-256 private key in PKCS#8 or SEC1 form.
    case malformedKey

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "no key file at \(path); expected the .p8 file downloaded from Apple (or written by `livepush keygen`)"
        case .fileUnreadable(let path, let reason):
            return "cannot read key file \(path): \(reason)"
        case .empty:
            return "the key is empty; expected a .p8 file: PEM text starting with -----BEGIN PRIVATE KEY-----"
        case .notPEM:
            return "the key is not PEM text; expected a .p8 file with -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines"
        case .unsupportedPEMLabel(let label):
            return
                "the PEM block is '\(label)', not a private key; expected -----BEGIN PRIVATE KEY----- (PKCS#8) or -----BEGIN EC PRIVATE KEY----- (SEC1)"
        case .badBase64:
            return "the text between the PEM BEGIN and END lines is not valid base64"
        case .wrongCurve(let curve):
            return "the key is an elliptic-curve key on \(curve); APNs provider keys are P-256 (prime256v1, ES256)"
        case .notECKey(let algorithm):
            return "the key is not an elliptic-curve key (it is \(algorithm)); APNs provider keys are EC P-256 (ES256)"
        case .malformedKey:
            return "the PEM block does not hold a valid P-256 private key in PKCS#8 or SEC1 form"
        }
    }
}
