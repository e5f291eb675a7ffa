import APNsClient
import APNsCore

/// A request answered where the test expected the client to fail before any answer.
struct AnsweredUnexpectedly: Error, CustomStringConvertible {
    let description: String
}

extension APNsClient {
    /// The error sending `request` ends in; when it is answered instead, throws ``AnsweredUnexpectedly``
    /// saying `ifAnswered`, which fails the test.
    func failure(sending request: APNsRequest, ifAnswered: String) async throws -> APNsClientError {
        do throws(APNsClientError) {
            _ = try await send(request)
        } catch {
            return error
        }
        throw AnsweredUnexpectedly(description: ifAnswered)
    }
}
