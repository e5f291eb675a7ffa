import Foundation
import LivePushTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test's backend: mints user tokens, reads activities, starts and updates them with the backend key.
struct Backend {
    let server: TestServer

    /// A user token for `userID`, valid `ttl` seconds (60 to 7 days).
    func userToken(_ userID: String, ttl: Int = 3600) async throws -> String {
        let answer = try await request("POST", "/v1/users/\(userID)/app-tokens", ["ttlSeconds": ttl])
        guard let token = answer.json["token"] as? String else { throw URLError(.userAuthenticationRequired) }
        return token
    }

    /// The activity as the server shows it, or nil when it does not know it.
    func activity(_ id: String) async throws -> [String: Any]? {
        let answer = try await request("GET", "/v1/activities/\(id)", nil)
        return answer.status == 200 ? answer.json["activity"] as? [String: Any] : nil
    }

    func start(user: String, attributesType: String, attributes: [String: Any], contentState: [String: Any]) async throws -> Int {
        try await request(
            "POST", "/v1/users/\(user)/start",
            [
                "attributesType": attributesType, "attributes": attributes, "contentState": contentState,
                "alert": ["title": "Adventure time", "body": "It begins"], "inputPushToken": true,
            ]
        ).status
    }

    func update(activity id: String, contentState: [String: Any]) async throws -> Int {
        try await request("POST", "/v1/activities/\(id)/update", ["contentState": contentState]).status
    }

    func request(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: server.url.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(server.backendKey)", forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }
}
