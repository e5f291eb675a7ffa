import ArgumentParser

struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "(being built)")
    func run() async throws {
        throw ValidationError("livepush send is not built yet")
    }
}
