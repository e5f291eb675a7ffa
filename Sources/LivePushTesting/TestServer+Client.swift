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
}
