import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The generated client's transport over `URLSession`, buffered: LivePushKit's requests and answers are
/// a few hundred bytes. Written here so that an app's graph holds no transport package beyond
/// OpenAPIRuntime (any other `ClientTransport` can be given instead).
public struct SessionTransport: ClientTransport {
    /// The most an answer may hold; LivePushKit's are far smaller.
    static let answerLimit = 1 << 20

    let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let url = URL(string: baseURL.absoluteString + (request.path ?? "")) else {
            throw URLError(.badURL)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.canonicalName)
        }
        if let body {
            urlRequest.httpBody = try await Data(collecting: body, upTo: Self.answerLimit)
        }
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var fields = HTTPFields()
        for case (let name as String, let value as String) in http.allHeaderFields {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return (HTTPResponse(status: .init(code: http.statusCode), headerFields: fields), HTTPBody(data))
    }
}
