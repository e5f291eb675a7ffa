import APNsClient
import APNsCore
import Foundation

/// Shows a request exactly as it would be sent.
enum RequestPrinter {
    static func describe(_ request: APNsRequest, endpoint: APNsEndpoint, authorization: String) -> String {
        var lines = [
            "POST \(endpoint)\(request.path)",
            ":authority: \(endpoint.authority)",
            "authorization: \(authorization)",
        ]
        for field in request.headers.fields {
            lines.append("\(field.name): \(field.value)")
        }
        lines.append("content-type: application/json")
        lines.append("content-length: \(request.body.count)")
        lines.append("")
        lines.append(String(decoding: request.body, as: UTF8.self))
        return lines.joined(separator: "\n")
    }
}
