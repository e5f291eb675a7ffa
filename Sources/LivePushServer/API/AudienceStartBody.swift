import Foundation

/// The body of `POST /v1/starts`, which the contract has accepted (`AudienceStart`): who the start is for,
/// and the start itself, read as a user's start is (``PushRequestBody``).
enum AudienceStartBody {
    static let operation = ContractRoute("startForAudience")

    /// Up to 10,000 user ids of up to 128 characters each: more than a single send's 64 KiB.
    static let maximumBytes = 2 * 1024 * 1024

    static func parse(_ body: Schemas.AudienceStart, now: Date) throws -> (AudienceStartAudience, PushContent) {
        let audience = try AudienceStartAudience.validated(userIDs: body.userIds, everyone: body.everyone)
        return (audience, PushRequestBody(body).content(now: now))
    }
}
