import APNsCore
import Foundation

/// Body values the routes turn into domain types, once the contract has accepted them.
enum RouteInputs {
    /// A device token of the body (the contract's `DeviceToken`: hex digits, an even number).
    static func token(_ body: JSONBody, _ key: String) throws(APIError) -> DeviceToken {
        let text = try body.required(key, body.string)
        do {
            return try DeviceToken(hex: text)
        } catch {
            throw .badRequest(key, "hex", "'\(key)': \(error.description)")
        }
    }

    /// `environment` of the body (the contract's `Environment`: sandbox or production).
    static func environment(_ body: JSONBody) throws(APIError) -> APNsEnvironment {
        try body.required("environment") { key in body.string(key).flatMap(APNsEnvironment.init(rawValue:)) }
    }
}
