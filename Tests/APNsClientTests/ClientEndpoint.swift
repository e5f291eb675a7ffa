import APNsClient

/// The client's endpoint type, named apart from the simulator's server type.
typealias ClientEndpoint = APNsEndpoint
