import APNsClient
import APNsCore
import ArgumentParser

/// Where a push goes: the token or the broadcast channel, the app, and the APNs endpoint.
struct SendTargetOptions: ParsableArguments {
    @Option(help: "The activity's push token (update/end) or the push-to-start token (start), as hex.")
    var token: String?
    @Option(help: "A broadcast channel id (iOS 18): broadcast the update or end to every activity subscribed to it, instead of pushing to --token.")
    var channel: String?
    @Option(
        name: .customLong("bundle-id"),
        help: "The app's bundle id; the topic is <bundle id>.push-type.liveactivity (with --push-type alert, the bundle id).")
    var bundleID: String
    @Option(help: "Apple's environment: sandbox (development builds) or production (TestFlight, App Store).")
    var environment: APNsEnvironment?
    @Option(help: "Any APNs endpoint instead, e.g. https://127.0.0.1:2197 for `livepush simulator`.")
    var url: String?
    @Option(name: .customLong("ca-file"), help: "Extra CA certificate (PEM) to trust, e.g. the simulator's ca.pem.")
    var caFile: String?
    @Option(help: "The most connections to open (with --count).")
    var connections: Int = 1

    /// Exactly one of --token and --channel.
    func validate() throws {
        switch (token, channel) {
        case (.some, .some):
            throw ValidationError(
                "--token and --channel are two targets: a push to one activity's token, or a broadcast to a channel's subscribers; give one, not both"
            )
        case (nil, nil):
            throw ValidationError("say whom to send to: --token HEX (an activity or push-to-start token) or --channel ID (a broadcast channel)")
        default:
            break
        }
        try Self.checkPlainBundleID(bundleID)
    }

    /// `--bundle-id` is the app's own id: one that already ends in a push type's topic suffix would be sent
    /// with the suffix twice (`….push-type.liveactivity.push-type.liveactivity`), which APNs refuses.
    static func checkPlainBundleID(_ bundleID: String) throws {
        guard let range = bundleID.range(of: ".push-type.") else { return }
        let plain = bundleID[..<range.lowerBound]
        throw ValidationError(
            "--bundle-id '\(bundleID)' ends in the topic suffix '\(bundleID[range.lowerBound...])'; give the app's bundle id, '\(plain)': "
                + "livepush send adds .push-type.liveactivity to the apns-topic itself")
    }

    /// The token, once `validate()` made sure it is there (or the channel is).
    var tokenValue: String { token ?? "" }

    func endpoint() throws -> APNsEndpoint {
        try EndpointChoice.endpoint(
            environment: environment, url: url, apple: { APNsEndpoint.apple($0) },
            neither: "say where to send: --environment sandbox|production, or --url https://HOST:PORT (the local simulator is https://127.0.0.1:2197)"
        )
    }
}

extension APNsEnvironment: ExpressibleByArgument {}
