import ArgumentParser

@main
struct LivePush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livepush",
        abstract: "Keep iOS Live Activities up to date through APNs.",
        subcommands: [
            KeygenCommand.self,
            JWTCommand.self,
            SendCommand.self,
            SimulatorCommand.self,
            ServeCommand.self,
            KeysCommand.self,
            DemoCommand.self,
        ]
    )
}
