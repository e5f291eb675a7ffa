import ArgumentParser

struct JWTCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "jwt", abstract: "(being built)")
    func run() async throws {
        throw ValidationError("livepush jwt is not built yet")
    }
}
