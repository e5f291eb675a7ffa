import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <credential>` with every request: a backend key, an app key, a user's app
/// token or an installation's token.
public struct BearerAuthentication: ClientMiddleware {
    let credential: String

    public init(_ credential: String) { self.credential = credential }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(credential)"
        return try await next(request, body, baseURL)
    }
}
