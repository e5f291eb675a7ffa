import Foundation
import LivePushAPIClient
import OpenAPIURLSession

extension TestServer {
    /// The generated client of this server (`LivePushAPIClient`) over URLSession, sending `credential`
    /// (``appKey``, ``backendKey``, a user's app token) and checking each request against the contract
    /// before it is sent (`RequestContractCheck`).
    public func client(_ credential: String) -> Client {
        Client(
            serverURL: url, transport: URLSessionTransport(), middlewares: [RequestContractCheck(), BearerAuthentication(credential)])
    }

    /// A user token for `userID`, minted as your backend would (`POST /v1/users/{userId}/app-tokens` with
    /// ``backendKey``): the credential of that user's app, which acts for that user only. `ttlSeconds`
    /// nil is the server's `appTokenLifetime` (an hour).
    ///
    /// ```swift
    /// let token = try await server.userToken(for: "ava")
    /// let app = server.client(token)      // registers Ava's activities, and no one else's
    /// ```
    public func userToken(for userID: String, ttlSeconds: Int? = nil) async throws -> String {
        let output = try await client(backendKey).mintAppToken(
            path: .init(userId: userID), body: ttlSeconds.map { .json(.init(ttlSeconds: $0)) })
        return try output.created.body.json.token
    }
}
