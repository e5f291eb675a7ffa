import Crypto
import Foundation
import Testing

@testable import LivePushServer

/// The example of docs/webhooks.md: the server signs it as documented, and the receiver's check accepts it.
@Suite struct WebhookSignatureTests {
    static let secret = "whsec-docs-example-0123456789abcdef"
    static let body = Data(#"{"activityId":"match-42","at":"2026-05-01T12:00:00Z","event":"activity.ended","reason":"backend","userId":"u-7"}"#.utf8)
    static let header = "t=1777636800,v1=502da2c488b9822465bf528ae8d23974d6122584d764ecbc766c6e3704075592"

    @Test func theDocumentedExampleIsWhatTheServerSends() throws {
        #expect(WebhookSignature.value(secret: Self.secret, timestamp: 1_777_636_800, body: Self.body) == Self.header)
        let sent = Date(timeIntervalSince1970: 1_777_636_800)
        #expect(throws: Never.self) {
            try WebhookSignatureCheck.verify(header: Self.header, body: Self.body, secret: Self.secret, now: sent.addingTimeInterval(299))
        }
        #expect(throws: WebhookSignatureCheck.Refusal.mismatch) {
            try WebhookSignatureCheck.verify(header: Self.header, body: Self.body, secret: Self.secret + "x", now: sent)
        }
    }

    @Test func theDocumentedSwiftExampleVerifies() {
        let sent = Date(timeIntervalSince1970: 1_777_636_800)
        #expect(documentedVerify(secret: Self.secret, signature: Self.header, body: Self.body, now: sent))
        #expect(!documentedVerify(secret: Self.secret + "x", signature: Self.header, body: Self.body, now: sent))
        #expect(!documentedVerify(secret: Self.secret, signature: Self.header, body: Self.body, now: sent.addingTimeInterval(301)))
    }
}

/// The Swift example of docs/webhooks.md, as it is there.
func documentedVerify(secret: String, signature: String, body: Data, now: Date = Date()) -> Bool {
    var t: String?
    var v1: [String] = []
    for part in signature.split(separator: ",") {
        let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2 else { continue }
        if pair[0] == "t" { t = pair[1] } else if pair[0] == "v1" { v1.append(pair[1]) }
    }
    guard let t, let seconds = Int(t), abs(now.timeIntervalSince1970 - Double(seconds)) <= 300 else { return false }
    let signed = Data("\(t).".utf8) + body
    let key = SymmetricKey(data: Data(secret.utf8))
    return v1.contains { hex in
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return false }
        let code = stride(from: 0, to: 64, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
        // Constant time.
        return code.count == 32 && HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: signed, using: key)
    }
}
