/// The value of the `apns-priority` header.
public enum APNsPriority: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Power first; never wakes the device.
    case low = 1
    /// Opportunistic, power-aware delivery. Live Activity updates at this priority do not count
    /// against the activity's hourly budget.
    case conservesPower = 5
    /// Deliver now. Live Activity pushes at this priority count against the hourly budget.
    case immediate = 10

    public static func < (lhs: APNsPriority, rhs: APNsPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
