import APNsAuth

/// The connections one provider key's tokens travel on. APNs binds a connection to the key of its first
/// push (`UnrelatedKeyIdInToken` for another key, docs/apns-protocol.md §2.5), so a client with several
/// keys keeps a pool per key: device pushes and broadcasts in `pool`, channel management in
/// `managementPool`.
struct KeyLane: Sendable {
    /// The key's id; nil for a client of one token source or of none (certificate authentication).
    let keyID: String?
    let tokens: (any ProviderTokenProviding)?
    let pool: ConnectionPool
    let managementPool: ConnectionPool
}
