import APNsCore
import Foundation

/// Body values the routes turn into domain types, once the contract has accepted them.
enum RouteInputs {
    /// The device token `text` of the body's member `key` (the contract's `DeviceToken`).
    static func token(_ text: String, _ key: String) throws(APIError) -> DeviceToken {
        do {
            return try DeviceToken(hex: text)
        } catch {
            throw .badRequest(key, "hex", "'\(key)': \(error.description)")
        }
    }

    /// The contract's `Environment` as the APNs environment of the same name.
    static func environment(_ environment: Schemas.Environment) -> APNsEnvironment {
        switch environment {
        case .sandbox: return .sandbox
        case .production: return .production
        }
    }
}
