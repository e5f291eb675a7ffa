import APNsCore
import APNsSimulator
import ArgumentParser
import Foundation

/// `livepush simulator certificate`: a provider (client) certificate for one app, signed by the
/// simulator's CA, for certificate-based connections.
struct SimulatorCertificateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certificate",
        abstract: "Issue a provider (client) certificate for an app, signed by the simulator's CA.",
        discussion: """
            Writes <bundle id>-<environment>.pem (the certificate) and <bundle id>-<environment>-key.pem (its \
            key, mode 0600) into --out. The certificate names the app as Apple's push certificates do (subject \
            UID = bundle id, CN "Apple Development IOS Push Services: <bundle id>", the topics extension \
            1.2.840.113635.100.6.3.6) and is signed by DATA_DIR/ca.pem: a simulator with the same data \
            directory accepts it at once, running or not. --environment (sandbox or production; default \
            sandbox) and --data-dir are the simulator's own options, given before or after `certificate`.
            Over a connection with the certificate, alert and background pushes to the bundle id are \
            accepted (the authorization header is ignored); a Live Activity push gets 400 TopicDisallowed \
            (Live Activities need a .p8 key), another app's topic 400 TopicDisallowed, the other environment \
            403 BadCertificateEnvironment; a certificate from another CA fails the TLS handshake.
            """
    )

    @ParentCommand var simulator: SimulatorCommand
    @Option(name: .customLong("bundle-id"), help: "The app's bundle id, e.g. com.example.app.")
    var bundleID: String
    @Option(help: "The folder to write the certificate and key into (made if missing).")
    var out: String = "."

    func run() throws {
        let environment = APNsEnvironment(rawValue: simulator.environment) ?? .sandbox
        let dataDirectory =
            simulator.dataDirectory.map { NSString(string: $0).expandingTildeInPath }
            ?? SimulatorDataDirectory.defaultPath()
        let paths: (certificate: String, key: String)
        let issued: ProviderCertificate
        do {
            issued = try ProviderCertificate.issue(bundleID: bundleID, environment: environment, directory: dataDirectory)
            paths = try issued.write(to: NSString(string: out).expandingTildeInPath)
        } catch {
            throw CommandFailure(error.description)
        }
        let ca = URL(fileURLWithPath: dataDirectory).appendingPathComponent("ca.pem").path
        let host = ["0.0.0.0", "::"].contains(simulator.host) ? "127.0.0.1" : simulator.host
        let url = "https://\(host.contains(":") ? "[\(host)]" : host):\(simulator.port)"
        let until = ISO8601DateFormatter().string(from: issued.notValidAfter)
        print(
            """
            Issued a \(environment.rawValue) provider certificate for \(bundleID), valid until \(until), signed by \(ca)
              certificate: \(paths.certificate)
              key:         \(paths.key)

            Send an alert with it (the simulator trusts it; no .p8 key needed):
              livepush send --url \(url) --ca-file '\(ca)' \\
                --cert-file '\(paths.certificate)' --cert-key-file '\(paths.key)' \\
                --token TOKEN --bundle-id \(bundleID) --push-type alert --alert-title Hello
              curl --http2 --cacert '\(ca)' --cert '\(paths.certificate)' --key '\(paths.key)' \\
                --header "apns-push-type: alert" --header "apns-topic: \(bundleID)" \\
                --data '{"aps":{"alert":{"title":"Hello"}}}' \(url)/3/device/TOKEN

            Live Activity pushes over this certificate get 400 TopicDisallowed: they need a .p8 key.
            """)
    }
}
