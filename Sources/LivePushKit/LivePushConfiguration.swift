import Foundation
import Logging
import OpenAPIRuntime

/// The APNs environment the app's tokens belong to: sandbox for builds run from Xcode, production for
/// TestFlight and the App Store.
public enum PushEnvironment: String, Sendable, Codable, Hashable {
    case sandbox
    case production
}

/// What a ``LivePushReporter`` needs from the app.
public struct LivePushConfiguration: Sendable {
    /// `livepush serve`'s address, e.g. `https://push.example.com`.
    public var serverURL: URL
    /// The app's bundle id, as APNs topics name it.
    public var bundleID: String
    public var environment: PushEnvironment
    /// The folder of the app's container that holds the journal (one file; keep one reporter per app).
    public var journalDirectory: URL
    public var credential: LivePushCredential
    /// The device id push-to-start tokens are stored under; nil: one made at the first launch and kept
    /// in the journal.
    public var deviceID: String?
    /// The generated client's transport; ``SessionTransport`` (URLSession) by default.
    public var transport: any ClientTransport
    public var retry: RetryPolicy
    /// An installation token is renewed once less than this is left of it.
    public var installationRenewalMargin: TimeInterval
    /// Receives LivePushKit's logs; tokens in them are shortened, credentials never appear.
    public var logger: Logger

    public init(
        serverURL: URL, bundleID: String, environment: PushEnvironment, journalDirectory: URL, credential: LivePushCredential,
        deviceID: String? = nil, transport: any ClientTransport = SessionTransport(), retry: RetryPolicy = RetryPolicy(),
        installationRenewalMargin: TimeInterval = 7 * 24 * 3600, logger: Logger = Logger(label: "livepush.kit")
    ) {
        self.serverURL = serverURL
        self.bundleID = bundleID
        self.environment = environment
        self.journalDirectory = journalDirectory
        self.credential = credential
        self.deviceID = deviceID
        self.transport = transport
        self.retry = retry
        self.installationRenewalMargin = installationRenewalMargin
        self.logger = logger
    }

    /// Refuses settings the server would refuse on every request.
    func validate() throws(LivePushKitError) {
        guard let scheme = serverURL.scheme?.lowercased(), scheme == "http" || scheme == "https", serverURL.host != nil else {
            throw .configuration(field: "serverURL", message: "an http or https URL with a host, like https://push.example.com")
        }
        guard !bundleID.isEmpty, bundleID.count <= 255 else {
            throw .configuration(field: "bundleID", message: "the app's bundle id, 1 to 255 characters")
        }
        if let deviceID, deviceID.isEmpty || deviceID.count > 128 {
            throw .configuration(field: "deviceID", message: "1 to 128 characters, or nil for one made and kept by LivePushKit")
        }
        guard journalDirectory.isFileURL else {
            throw .configuration(field: "journalDirectory", message: "a folder of the app's container (a file URL)")
        }
        if case .installation(let appKey) = credential, appKey.isEmpty {
            throw .configuration(field: "credential", message: "an installation needs the app key of scope app that opens it")
        }
    }
}
