import APNsClient
import APNsCore

/// `--environment` or `--url`: Apple's endpoint for an environment, or any other one (the local
/// simulator's). Exactly one is given.
enum EndpointChoice {
    /// - Parameters:
    ///   - apple: Apple's endpoint of the command for an environment.
    ///   - neither: what to say when neither flag is given.
    static func endpoint(
        environment: APNsEnvironment?, url: String?, apple: (APNsEnvironment) -> APNsEndpoint, neither: String
    ) throws -> APNsEndpoint {
        switch (environment, url) {
        case (.some, .some):
            throw CommandFailure("give either --environment or --url, not both")
        case (let environment?, nil):
            return apple(environment)
        case (nil, let url?):
            do { return try APNsEndpoint(url: url) } catch { throw CommandFailure("--url: \(error.description)") }
        case (nil, nil):
            throw CommandFailure(neither)
        }
    }
}
