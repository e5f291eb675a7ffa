import Foundation
import LiveActivity
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small JSON-over-HTTP/1.1 client of the LivePush API holding one API key: what a real app or backend
/// uses to talk to the server.
struct LivePushAPIClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    let key: String
    let session: URLSession

    /// A successful answer: the status and the JSON body (nil when empty).
    struct Answer: Sendable {
        var status: Int
        var json: JSONValue?
    }

    /// Sends a request; a non-2xx answer throws ``DemoError/api(method:path:status:message:)`` with the
    /// server's error message.
    func send(_ method: String, _ path: String, body: JSONValue? = nil) async throws(DemoError) -> Answer {
        guard let url = URL(string: baseURL + path) else {
            throw .unreachable(method: method, path: path, detail: "not a URL: \(baseURL + path)")
        }
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body.serialized()
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable(method: method, path: path, detail: error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = data.isEmpty ? nil : try? JSONValue.parse(data)
        guard (200..<300).contains(status) else {
            let message = json?["error"]?["message"]?.stringValue ?? String(decoding: data.prefix(500), as: UTF8.self)
            throw .api(method: method, path: path, status: status, message: message)
        }
        return Answer(status: status, json: json)
    }
}
