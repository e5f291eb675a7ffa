import Foundation

extension UUID {
    /// The lowercase form the API uses (as `apns-id` does).
    var lowercased: String { uuidString.lowercased() }
}
