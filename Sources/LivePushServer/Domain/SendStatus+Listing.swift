import Foundation

/// What a list of sends orders by, for a group send and an audience start alike.
extension SendStatus {
    var sendID: UUID {
        switch self {
        case .group(let status): status.sendID
        case .audience(let status): status.sendID
        }
    }

    var acceptedAt: Date {
        switch self {
        case .group(let status): status.acceptedAt
        case .audience(let status): status.acceptedAt
        }
    }
}
