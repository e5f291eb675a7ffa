import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Authorization: Bearer <credential>` with every request of one client.
struct BearerMiddleware: ClientMiddleware {
    let credential: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(credential)"
        return try await next(request, body, baseURL)
    }
}
