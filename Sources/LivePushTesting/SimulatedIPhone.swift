/// A simulated iPhone with the app installed (``SimulatedAPNs/addIPhone(name:frequentPushesEnabled:)``).
public struct SimulatedIPhone: Sendable, Hashable {
    /// The simulator's id for the device.
    public var id: String
    public var name: String
    /// The app's push-to-start token on this device, when the simulator gave it one.
    public var pushToStartToken: String
}

/// A Live Activity running on a simulated iPhone (``SimulatedAPNs/startActivity(on:attributesType:attributes:contentState:)``).
public struct SimulatedActivity: Sendable, Hashable {
    /// ActivityKit's id of the activity.
    public var id: String
    /// Its update token (hex), what the app would send to its server.
    public var pushToken: String
    public var iPhone: SimulatedIPhone
}
