import Foundation
import LiveActivity
import LivePushServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small JSON-over-HTTP/1.1 client of the LivePush API holding one API key: what a real app or backend
/// uses to talk to the server. It encodes the API's request types and decodes its response types
/// (`LivePushServer`'s `Contract/`), the ones `/openapi.json` describes.
struct LivePushAPIClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    let key: String
    let session: URLSession

    /// Sends `body` and decodes the answer as `Answer`; a non-2xx answer throws
    /// ``DemoError/api(method:path:status:message:)`` with the server's error message.
    func send<Answer: Decodable>(_ method: String, _ path: String, body: some Encodable, as _: Answer.Type) async throws(DemoError) -> Answer {
        let data: Data
        do {
            data = try APIJSON.encoder().encode(body)
        } catch {
            throw .api(method: method, path: path, status: 0, message: "the request body could not be encoded: \(error)")
        }
        return try decode(Answer.self, method, path, from: await perform(method, path, body: data))
    }

    /// `GET path`, decoded as `Answer`.
    func get<Answer: Decodable>(_ path: String, as _: Answer.Type) async throws(DemoError) -> Answer {
        try decode(Answer.self, "GET", path, from: await perform("GET", path, body: nil))
    }

    private func decode<Answer: Decodable>(_: Answer.Type, _ method: String, _ path: String, from answer: (status: Int, data: Data)) throws(DemoError)
        -> Answer
    {
        do {
            return try APIJSON.decoder().decode(Answer.self, from: answer.data)
        } catch {
            throw .api(method: method, path: path, status: answer.status, message: "the answer is not a \(Answer.self): \(error)")
        }
    }

    private func perform(_ method: String, _ path: String, body: Data?) async throws(DemoError) -> (status: Int, data: Data) {
        guard let url = URL(string: baseURL + path) else {
            throw .unreachable(method: method, path: path, detail: "not a URL: \(baseURL + path)")
        }
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = method
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable(method: method, path: path, detail: error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let message =
                (try? APIJSON.decoder().decode(JSONErrorBody.self, from: data))?.error.message
                ?? String(decoding: data.prefix(500), as: UTF8.self)
            throw .api(method: method, path: path, status: status, message: message)
        }
        return (status, data)
    }
}
