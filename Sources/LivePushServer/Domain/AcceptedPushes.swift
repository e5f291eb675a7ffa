import Foundation
import PushStore

extension UUID {
    /// The lowercase form the API uses (as `apns-id` does).
    var lowercased: String { uuidString.lowercased() }
}

// `AcceptedPushes`, the 202 answer of a send request, is a wire type: API/Contract/ResponseBodies.swift.
