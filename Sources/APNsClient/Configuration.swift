import APNsCore
import Foundation

/// How an `APNsClient` connects and retries.
public struct APNsClientConfiguration: Sendable {
    /// Where device pushes and broadcasts go.
    public var endpoint: APNsEndpoint
    /// Where channel management requests go (docs/apns-protocol.md §10.1). nil: Apple's management host
    /// for `endpoint`'s environment (port 2195 sandbox, 2196 production), or, for an endpoint that is not
    /// Apple's (the simulator), the same host on port 2195.
    public var channelManagementEndpoint: APNsEndpoint?
    /// Extra CA certificate (PEM file) to trust besides the system's, e.g. the simulator's `ca.pem`.
    public var additionalTrustRootFile: String?
    /// Trust only `additionalTrustRootFile`, not the system roots.
    public var trustOnlyAdditionalRoots: Bool
    /// A client certificate to present: certificate-based authentication instead of provider tokens
    /// (make the client with `tokens: nil`). nil: none, the token path.
    public var clientCertificate: APNsClientCertificate?
    /// The most connections the pool opens to the endpoint. A new one is opened only when every open
    /// connection is at its stream limit (the server's, or `maximumStreamsPerConnection` when lower).
    public var maximumConnections: Int
    /// The most requests in flight on one connection (APNs allows about 1,000): the pool spreads requests
    /// over its connections by this limit, and requests above it on a connection wait for a free stream.
    /// A connection's CPU per request grows with its open streams (swift-nio-http2 keeps them in arrays
    /// sorted by id and moves the newer ones when a stream closes out of order); requests in flight
    /// overall are at most `maximumConnections` times this, enough for a far APNs' round trip.
    public var maximumStreamsPerConnection: Int
    /// How long connecting (TCP and TLS) may take.
    public var connectTimeout: Duration
    /// The deadline of one request attempt, from the call until its answer.
    public var requestTimeout: Duration
    /// Send a PING after this much silence on a connection; close it when the PING goes unanswered.
    public var idlePingInterval: Duration
    /// Retries for one push.
    public var retry: APNsRetryPolicy

    public init(
        endpoint: APNsEndpoint,
        channelManagementEndpoint: APNsEndpoint? = nil,
        additionalTrustRootFile: String? = nil,
        trustOnlyAdditionalRoots: Bool = false,
        clientCertificate: APNsClientCertificate? = nil,
        maximumConnections: Int = 4,
        maximumStreamsPerConnection: Int = 100,
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(30),
        idlePingInterval: Duration = .seconds(60 * 60),
        retry: APNsRetryPolicy = APNsRetryPolicy()
    ) {
        self.endpoint = endpoint
        self.channelManagementEndpoint = channelManagementEndpoint
        self.additionalTrustRootFile = additionalTrustRootFile
        self.trustOnlyAdditionalRoots = trustOnlyAdditionalRoots
        self.clientCertificate = clientCertificate
        self.maximumConnections = max(1, maximumConnections)
        self.maximumStreamsPerConnection = max(1, maximumStreamsPerConnection)
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.idlePingInterval = idlePingInterval
        self.retry = retry
    }
}

extension APNsClientConfiguration {
    /// The channel management endpoint in use: the configured one, else the default for `endpoint`.
    public var resolvedChannelManagementEndpoint: APNsEndpoint {
        if let channelManagementEndpoint { return channelManagementEndpoint }
        if let environment = endpoint.environment { return .channelManagement(environment) }
        return APNsEndpoint(host: endpoint.host, port: APNsEnvironment.sandbox.channelManagementPort)
    }
}
