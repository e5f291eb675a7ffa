import ArgumentParser

struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "keygen", abstract: "(being built)")
    func run() async throws {
        throw ValidationError("livepush keygen is not built yet")
    }
}
