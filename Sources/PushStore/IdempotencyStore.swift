import Foundation

/// A request made with an `Idempotency-Key`: the fingerprint of its body and, once it was answered, the
/// answer to give a retry.
package struct IdempotencyRecord: Sendable, Hashable {
    /// Who made it (one key space per principal).
    package var owner: String
    package var key: String
    /// What identifies the request's content (a SHA-256 of method, path and body).
    package var requestHash: String
    /// When the current holder reserved the key.
    package var reservedAt: Date
    /// The answer's HTTP status and body, once answered.
    package var status: Int?
    package var responseBody: Data?
    package var completedAt: Date?
}

/// What ``IdempotencyStore/reserveIdempotencyKey(owner:key:requestHash:at:keepFor:takeOverAfter:)`` found.
package enum IdempotencyClaim: Sendable, Hashable {
    /// The key is this caller's: run the request, then complete (or release) the key.
    case reserved
    /// The request was answered before: give this answer again.
    case completed(IdempotencyRecord)
    /// Another request with this key is being answered right now.
    case inProgress(IdempotencyRecord)
    /// The key was used with another request (another body or route).
    case mismatch(IdempotencyRecord)
}

/// The `Idempotency-Key` records of send requests, kept for a day.
package protocol IdempotencyStore: Sendable {
    /// Reserves `key` for a request, atomically across processes. A record older than `keepFor` is
    /// forgotten first (the key is free again). A record with another `requestHash` is a `mismatch`; an
    /// answered one is `completed`; an unanswered one is `inProgress` unless it was reserved more than
    /// `takeOverAfter` seconds ago (its holder died), in which case this caller takes it over.
    func reserveIdempotencyKey(
        owner: String, key: String, requestHash: String, at: Date, keepFor: TimeInterval, takeOverAfter: TimeInterval
    ) async throws(PushStoreError) -> IdempotencyClaim

    /// Stores the answer of a reserved request. Throws `notFound` when the reservation is gone.
    func completeIdempotencyKey(owner: String, key: String, status: Int, responseBody: Data, at: Date)
        async throws(PushStoreError)

    /// Drops an unanswered reservation (the request failed before anything was accepted), so that a retry
    /// runs again. An answered record is kept.
    func releaseIdempotencyKey(owner: String, key: String) async throws(PushStoreError)

    /// Deletes records reserved before `date`; returns how many.
    func forgetIdempotencyKeys(before date: Date) async throws(PushStoreError) -> Int
}
