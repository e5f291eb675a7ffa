import Crypto
import Foundation

/// The `LivePush-Signature` header of a webhook POST: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
/// `"<t>.<raw body>"` with the webhook secret. The receiver recomputes it (docs/webhooks.md).
enum WebhookSignature {
    static let signatureHeader = "LivePush-Signature"
    static let eventIDHeader = "LivePush-Event-Id"

    /// The header's value for `body` sent at `timestamp` (unix seconds).
    static func value(secret: String, timestamp: Int, body: Data) -> String {
        "t=\(timestamp),v1=" + hex(code(secret: secret, timestamp: timestamp, body: body))
    }

    /// HMAC-SHA256(secret, "<timestamp>.<body>").
    static func code(secret: String, timestamp: Int, body: Data) -> [UInt8] {
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        return Array(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8))))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
