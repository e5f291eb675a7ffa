import APNsCore
import Foundation
import Hummingbird

/// Path parameters and typed body values shared by the routes.
enum RouteInputs {
    static let maximumIDLength = 128

    /// A path parameter, percent-decoded (an id registered as `café/1` is reached as `caf%C3%A9%2F1`):
    /// 1 to 128 characters and at most 512 bytes, counted after decoding, none of them a control or format
    /// character (the `Id` schema of /openapi.json; the store refuses such an id too, but the route names
    /// the parameter and the rule).
    static func pathID(_ name: String, _ context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), !raw.isEmpty else {
            throw .badRequest(name, "required", "'\(name)' is missing from the path")
        }
        guard let value = raw.removingPercentEncoding else {
            throw .badRequest(name, "percentEncoding", "'\(name)' is not valid percent-encoded UTF-8; encode each byte of the UTF-8 id as %XX")
        }
        guard !value.isEmpty else { throw .badRequest(name, "required", "'\(name)' is empty") }
        try JSONBody.checkBytes(name, value, maxLength: maximumIDLength)
        guard value.count <= maximumIDLength else {
            throw .badRequest(name, "maxLength", "'\(name)' has \(value.count) characters; at most \(maximumIDLength) are accepted")
        }
        return try printable(name, value, kind: "ids are")
    }

    /// `value` when it has no control character (general category Cc: U+0000 to U+001F, U+007F to
    /// U+009F) and no format character (Cf: U+200B, U+202E, U+FEFF…, invisible or reordering the text
    /// around them, so that two ids that look the same differ), else 400 invalid naming `field`, the
    /// character and its 1-based position in scalars; `kind` says what the value is (`ids are`, `a bundle
    /// id is`). Nearly every value is printable ASCII, which needs no Unicode lookup.
    static func printable(_ field: String, _ value: String, kind: String) throws(APIError) -> String {
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return value }
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            switch scalar.properties.generalCategory {
            case .control:
                throw .badRequest(
                    field, "invalid",
                    "'\(field)' has the control character \(Self.name(scalar)) at position \(offset + 1); \(kind) printable text: no U+0000 to U+001F or U+007F to U+009F"
                )
            case .format:
                throw .badRequest(
                    field, "invalid",
                    "'\(field)' has the format character \(Self.name(scalar)) at position \(offset + 1); \(kind) visible text: no Unicode format characters (category Cf, such as U+200B zero width space, U+202E right-to-left override, U+FEFF byte order mark)"
                )
            default:
                continue
            }
        }
        return value
    }

    /// A body id: `printable`, 1 to `maxLength` characters and at most 4 bytes each (`JSONBody.string`).
    static func id(_ body: JSONBody, _ key: String, maxLength: Int = maximumIDLength, kind: String = "ids are") throws(APIError) -> String? {
        try body.string(key, maxLength: maxLength).map { value throws(APIError) in try printable(body.name(key), value, kind: kind) }
    }

    /// `id`, required.
    static func requiredID(_ body: JSONBody, _ key: String, maxLength: Int = maximumIDLength, kind: String = "ids are") throws(APIError) -> String {
        try printable(body.name(key), try body.requiredString(key, maxLength: maxLength), kind: kind)
    }

    /// A value sent to APNs as the request header `header` (`collapseId` as `apns-collapse-id`): printable
    /// text without leading or trailing spaces. A control character cannot be sent (a NUL cut the value
    /// short, CR/LF failed every attempt until the push expired) and HTTP drops the outer spaces, so any of
    /// them would reach APNs as another value, or not at all.
    static func headerValue(_ field: String, _ value: String, header: String) throws(APIError) -> String {
        let accepted =
            "it is sent as the \(header) header, which takes printable text without control or format characters and without leading or trailing spaces"
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            let category = scalar.properties.generalCategory
            guard category == .control || category == .format else { continue }
            throw .badRequest(
                field, "invalid",
                "'\(field)' has the \(category == .control ? "control" : "format") character \(Self.name(scalar)) at position \(offset + 1); \(accepted)"
            )
        }
        if value.first == " " || value.last == " " {
            throw .badRequest(field, "invalid", "'\(field)' starts or ends with a space; \(accepted)")
        }
        return value
    }

    /// `U+000D` for a scalar.
    private static func name(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(format: "%04X", scalar.value)
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
            throw .badRequest(
                "environment", "oneOf", "'environment' is '\(text)'; accepted: sandbox (development builds), production (TestFlight, App Store)")
        }
        return environment
    }
}
