import Foundation
import LiveActivity

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response read by the tests: the status, the raw body and its JSON.
struct TestResponse: Sendable {
    var status: Int
    var data: Data
    var json: JSONValue? { try? JSONValue.parse(data) }
    var text: String { String(decoding: data, as: UTF8.self) }

    /// `error.field` and `error.rule` of an error body.
    var errorField: String? { json?["error"]?["field"]?.stringValue }
    var errorRule: String? { json?["error"]?["rule"]?.stringValue }
}

/// Plain HTTP/1.1 requests to a server on 127.0.0.1.
struct TestHTTP: Sendable {
    let port: Int

    func request(_ method: String, _ path: String, key: String? = nil, json: String? = nil) async throws -> TestResponse {
        try await request(method, path, key: key, body: json.map { Data($0.utf8) }).response
    }

    /// Any body bytes (not necessarily UTF-8); also returns the response headers.
    func request(_ method: String, _ path: String, key: String? = nil, body: Data?, headers extra: [String: String] = [:])
        async throws -> (response: TestResponse, headers: [String: String])
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 30)
        request.httpMethod = method
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] { headers["\(name)".lowercased()] = "\(value)" }
        return (TestResponse(status: http?.statusCode ?? 0, data: data), headers)
    }

    func post(_ path: String, key: String?, _ json: String) async throws -> TestResponse {
        try await request("POST", path, key: key, json: json)
    }

    func put(_ path: String, key: String?, _ json: String) async throws -> TestResponse {
        try await request("PUT", path, key: key, json: json)
    }

    func get(_ path: String, key: String? = nil) async throws -> TestResponse {
        try await request("GET", path, key: key)
    }
}
