import APNsClient
import APNsCore
import Foundation

/// Shows a request exactly as it would be sent.
enum RequestPrinter {
    static func describe(_ request: APNsRequest, endpoint: APNsEndpoint, authorization: String) -> String {
        describe(
            method: "POST", path: request.path, fields: request.headers.fields, body: request.body,
            endpoint: endpoint, authorization: authorization)
    }

    static func describe(
        method: String, path: String, fields: [(name: String, value: String)], body: Data, endpoint: APNsEndpoint,
        authorization: String
    ) -> String {
        var lines = [
            "\(method) \(endpoint)\(path)",
            ":authority: \(endpoint.authority)",
            "authorization: \(authorization)",
        ]
        for field in fields {
            lines.append("\(field.name): \(field.value)")
        }
        if !body.isEmpty { lines.append("content-type: application/json") }
        lines.append("content-length: \(body.count)")
        if !body.isEmpty {
            lines.append("")
            lines.append(String(decoding: body, as: UTF8.self))
        }
        return lines.joined(separator: "\n")
    }
}
