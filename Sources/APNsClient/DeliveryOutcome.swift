import APNsCore

/// The one final outcome of a push after its retries.
public struct APNsDeliveryOutcome: Sendable {
    /// The last answer, or the error of the last attempt when there was no answer.
    public var result: Result<APNsResponse, APNsClientError>
    public var attempts: Int
    public var duration: Duration

    public init(result: Result<APNsResponse, APNsClientError>, attempts: Int, duration: Duration) {
        self.result = result
        self.attempts = attempts
        self.duration = duration
    }

    /// The answer, when APNs gave one.
    public var response: APNsResponse? {
        if case .success(let response) = result { return response }
        return nil
    }

    /// True when APNs accepted the push (200).
    public var isAccepted: Bool { response?.isSuccess ?? false }

    /// The reason of a rejection, when APNs gave one.
    public var reason: APNsReason? { response?.reason }

    /// The transport error, when APNs gave no answer.
    public var error: APNsClientError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
