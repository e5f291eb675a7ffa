import APNsCore
import Foundation
import Hummingbird

/// Path parameters and typed body values shared by the routes.
enum RouteInputs {
    static let maximumIdLength = 128

    /// A path parameter: 1 to 128 characters.
    static func pathId(_ name: String, _ context: some RequestContext) throws(APIError) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else {
            throw .badRequest(name, "required", "'\(name)' is missing from the path")
        }
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
