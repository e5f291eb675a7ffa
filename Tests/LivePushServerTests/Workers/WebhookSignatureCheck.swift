import Crypto
import Foundation

/// What a receiving backend does with a webhook POST, step by step as docs/webhooks.md says, written
/// apart from the server's signing code.
enum WebhookSignatureCheck {
    /// Why a POST was refused.
    enum Refusal: Error, Equatable {
        case missingHeader, malformedHeader, tooOld, mismatch
    }

    /// 1. parse `t` and every `v1` of `LivePush-Signature`; 2. reject when |now - t| > 5 min;
    /// 3. HMAC-SHA256(secret, "<t>.<raw body>"); 4. compare with each v1 in constant time.
    static func verify(header: String?, body: Data, secret: String, now: Date = Date()) throws(Refusal) {
        guard let header else { throw .missingHeader }
        var timestamp: String?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = pair[1] } else if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, let seconds = Int(timestamp), !signatures.isEmpty else { throw .malformedHeader }
        guard abs(now.timeIntervalSince1970 - Double(seconds)) <= 300 else { throw .tooOld }
        let signed = Data((timestamp + ".").utf8) + body
        let key = SymmetricKey(data: Data(secret.utf8))
        let valid = signatures.contains { signature in
            guard let code = bytes(hex: signature) else { return false }
            return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: signed, using: key)
        }
        guard valid else { throw .mismatch }
    }

    private static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
