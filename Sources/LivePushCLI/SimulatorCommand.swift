import ArgumentParser

struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulator", abstract: "(being built)")
    func run() async throws {
        throw ValidationError("livepush simulator is not built yet")
    }
}
