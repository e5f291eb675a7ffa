import APNsCore
import Foundation

/// Body values the routes turn into domain types, once the contract has accepted them.
enum RouteInputs {
    /// A device token of the body (the contract's `DeviceToken`: hex digits, an even number).
    static func token(_ body: JSONBody, _ key: String) throws(APIError) -> DeviceToken {
        try token(try body.required(key, body.string), key)
    }

    /// The device token `text` of the body's member `key` (the contract's `DeviceToken`).
    static func token(_ text: String, _ key: String) throws(APIError) -> DeviceToken {
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

    /// The contract's `Environment` as the APNs environment of the same name.
    static func environment(_ environment: Schemas.Environment) -> APNsEnvironment {
        switch environment {
        case .sandbox: return .sandbox
        case .production: return .production
        }
    }
}
