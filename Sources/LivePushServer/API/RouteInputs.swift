import APNsCore
import Foundation
import Hummingbird

/// Path parameters and typed body values shared by the routes.
enum RouteInputs {
    static let maximumIdLength = 128

    /// A path parameter, percent-decoded (an id registered as `café/1` is reached as `caf%C3%A9%2F1`):
    /// 1 to 128 characters, counted after decoding.
    static func pathId(_ name: String, _ context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else {
            throw .badRequest(name, "required", "'\(name)' is missing from the path")
        }
        guard let value = raw.removingPercentEncoding else {
            throw .badRequest(name, "percentEncoding", "'\(name)' is not valid percent-encoded UTF-8; encode each byte of the UTF-8 id as %XX")
        }
        guard !value.isEmpty else { throw .badRequest(name, "required", "'\(name)' is empty") }
        guard value.count <= maximumIdLength else {
            throw .badRequest(name, "maxLength", "'\(name)' has \(value.count) characters; at most \(maximumIdLength) are accepted")
        }
        return value
    }

    static func token(_ body: JSONBody, _ key: String) throws(APIError) -> DeviceToken {
        let text = try body.requiredString(key, maxLength: 1024)
        do {
            return try DeviceToken(hex: text)
        } catch {
            throw .badRequest(body.name(key), "hex", "'\(body.name(key))': \(error.description)")
        }
    }

    static func environment(_ body: JSONBody) throws(APIError) -> APNsEnvironment {
        let text = try body.requiredString("environment", maxLength: 32)
        guard let environment = APNsEnvironment(rawValue: text) else {
            throw .badRequest("environment", "oneOf", "'environment' is '\(text)'; accepted: sandbox (development builds), production (TestFlight, App Store)")
        }
        return environment
    }
}
