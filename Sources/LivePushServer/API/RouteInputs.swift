import APNsCore
import Foundation
import Hummingbird

/// Path parameters and typed body values shared by the routes.
enum RouteInputs {
    static let maximumIdLength = 128

    /// A path parameter, percent-decoded (an id registered as `café/1` is reached as `caf%C3%A9%2F1`):
    /// 1 to 128 characters, counted after decoding, none of them a control character (the `Id` schema of
    /// /openapi.json; the store refuses such an id too, but the route names the parameter and the rule).
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
        return try printable(name, value, kind: "ids are")
    }

    /// `value` when it has no control character (general category Cc: U+0000 to U+001F, U+007F to
    /// U+009F), else 400 invalid naming `field`, the character and its 1-based position in scalars;
    /// `kind` says what the value is (`ids are`, `a bundle id is`).
    static func printable(_ field: String, _ value: String, kind: String) throws(APIError) -> String {
        for (offset, scalar) in value.unicodeScalars.enumerated() where scalar.properties.generalCategory == .control {
            throw .badRequest(field, "invalid", "'\(field)' has the control character U+\(String(format: "%04X", scalar.value)) at position \(offset + 1); \(kind) printable text: no U+0000 to U+001F or U+007F to U+009F")
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
