import Foundation

/// One PEM block: its label and the DER bytes between the BEGIN and END lines. Tolerates CRLF line
/// ends, a missing final newline, surrounding text, indentation and base64 lines of any length.
struct PEMBlock {
    let label: String
    let der: [UInt8]

    /// Parses the first block whose label is in `preferredLabels` (so `openssl ecparam -genkey`
    /// output, which puts an `EC PARAMETERS` block first, works); when none is, the first block.
    init(parsing text: String, preferring preferredLabels: Set<String>) throws(APNsKeyError) {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        guard !normalized.allSatisfy(\.isWhitespace) else { throw .empty }
        var found: [(label: String, body: Substring)] = []
        var searchStart = normalized.startIndex
        while let begin = normalized.range(of: "-----BEGIN ", range: searchStart..<normalized.endIndex),
              let beginEnd = normalized.range(of: "-----", range: begin.upperBound..<normalized.endIndex) {
            let label = String(normalized[begin.upperBound..<beginEnd.lowerBound])
            guard let end = normalized.range(of: "-----END \(label)-----", range: beginEnd.upperBound..<normalized.endIndex)
            else { break }
            found.append((label, normalized[beginEnd.upperBound..<end.lowerBound]))
            searchStart = end.upperBound
        }
        guard let chosen = found.first(where: { preferredLabels.contains($0.label) }) ?? found.first else {
            throw .notPEM
        }
        let body = chosen.body.filter { !$0.isWhitespace }
        guard !body.isEmpty else { throw .empty }
        guard let data = Data(base64Encoded: String(body)) else { throw .badBase64 }
        self.label = chosen.label
        self.der = Array(data)
    }

    /// Renders DER bytes as PEM with 64-character lines and a final newline.
    static func render(label: String, der: some Sequence<UInt8>) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let next = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<next]))
            index = next
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
