import APNsCore
import Crypto
import Foundation
import Logging
import PushStore

/// `Idempotency-Key` on send requests: the same key with the same request within 24 hours answers the
/// first answer again and sends nothing more; the same key with another request is refused (422
/// keyReused); a retry while the first is still being answered is refused (409 inProgress). Keys are
/// per principal. A request that fails frees its key, so a corrected retry may use it.
struct IdempotencyService: Sendable {
    let store: any PushStore
    let clock: any WallClock
    let logger: Logger

    /// How long an answer is kept and replayed.
    static let keepFor: TimeInterval = 24 * 3600
    /// An unanswered reservation older than this belongs to a process that died: a retry takes it over.
    static let takeOverAfter: TimeInterval = 120

    /// An answer: its HTTP status, its JSON body, and whether it is a replay of an earlier one.
    struct Answer: Sendable {
        var status: Int
        var body: Data
        var replayed: Bool
    }

    /// Checks a key as the header gives it: 1 to 255 printable ASCII characters.
    static func check(key: String) throws(DomainError) {
        guard !key.isEmpty, key.utf8.count <= 255, key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .invalid(
                "Idempotency-Key", "idempotencyKey", "the Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID is a good key)")
        }
    }

    /// The SHA-256 of what identifies a request: method, path and body bytes.
    static func fingerprint(method: String, path: String, body: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(method) \(path)\n".utf8))
        hasher.update(data: Data(body))
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Runs `work` once per `(owner, key)`: its answer is stored and given again to a retry.
    func once(
        owner: String, key: String, fingerprint: String, _ work: () async throws -> (status: Int, body: Data)
    ) async throws -> Answer {
        try Self.check(key: key)
        let now = clock.now()
        let claim = try await stored { () async throws(PushStoreError) in
            try await store.reserveIdempotencyKey(
                owner: owner, key: key, requestHash: fingerprint, at: now, keepFor: Self.keepFor, takeOverAfter: Self.takeOverAfter)
        }
        switch claim {
        case .completed(let record):
            logger.debug("idempotent request replayed", metadata: ["owner": "\(owner)"])
            return Answer(status: record.status ?? 200, body: record.responseBody ?? Data(), replayed: true)
        case .mismatch(let record):
            throw DomainError(
                kind: .keyReused, subject: "Idempotency-Key", rule: "keyReused",
                message:
                    "this Idempotency-Key was used at \(ISO8601DateFormatter().string(from: record.reservedAt)) for another request (another route or body); use a new key for a new request"
            )
        case .inProgress:
            throw DomainError.conflict(
                "Idempotency-Key", "inProgress", "a request with this Idempotency-Key is still being answered; retry in a moment")
        case .reserved:
            break
        }
        let answer: (status: Int, body: Data)
        do {
            answer = try await work()
        } catch {
            do {
                try await store.releaseIdempotencyKey(owner: owner, key: key)
            } catch let release {
                logger.error("an Idempotency-Key of a failed request could not be freed", metadata: ["error": "\(release)"])
            }
            throw error
        }
        do {
            try await store.completeIdempotencyKey(owner: owner, key: key, status: answer.status, responseBody: answer.body, at: clock.now())
        } catch {
            // The pushes are accepted; a retry within `takeOverAfter` gets 409, after it the key is taken over.
            logger.error("the answer of an idempotent request could not be stored", metadata: ["error": "\(error)"])
        }
        return Answer(status: answer.status, body: answer.body, replayed: false)
    }
}
