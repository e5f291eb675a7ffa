import Foundation
import SwiftASN1

extension PEMDocument {
    /// Reads the PEM document in a key file's text. swift-asn1 frames and decodes it; before that the
    /// text is laid out as its strict RFC 7468 form needs (lines of exactly 64 characters, each ended by a
    /// newline), so that what keys come as still reads: CRLF or CR line ends, a missing final newline,
    /// surrounding text, indentation and base64 lines of any length.
    ///
    /// Picks the first document whose label is in `preferredLabels` (so `openssl ecparam -genkey` output,
    /// which puts an `EC PARAMETERS` block first, works); when none is, the first document.
    init(keyFileText text: String, preferring preferredLabels: Set<String>) throws(APNsKeyError) {
        guard !text.allSatisfy(\.isWhitespace) else { throw .empty }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: Self.strictLayout(of: text))
        } catch {
            // PEMDocument reports every framing problem as ASN1Error.invalidPEMDocument, with the reason
            // in its description; our cases say the same without repeating any of the text.
            let reason = String(describing: error)
            if reason.contains("empty body") { throw .empty }
            if reason.contains("base64") { throw .badBase64 }
            throw .notPEM
        }
        guard let chosen = documents.first(where: { preferredLabels.contains($0.discriminator) }) ?? documents.first else {
            throw .notPEM
        }
        self = chosen
    }

    /// The document as a file holds it: 64-character lines and a final newline.
    var fileText: String { pemString + "\n" }

    /// `text` with every line trimmed, the BEGIN and END lines kept, and each run of other lines joined
    /// without whitespace and wrapped again at 64 characters; every line ends with a newline.
    private static func strictLayout(of text: String) -> String {
        var lines: [String] = []
        var run = ""
        func endRun() {
            var rest = run[...]
            while !rest.isEmpty {
                lines.append(String(rest.prefix(64)))
                rest = rest.dropFirst(64)
            }
            run = ""
        }
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("-----BEGIN ") || trimmed.hasPrefix("-----END ") {
                endRun()
                lines.append(trimmed)
            } else {
                run += line.filter { !$0.isWhitespace }
            }
        }
        endRun()
        return lines.map { $0 + "\n" }.joined()
    }
}
