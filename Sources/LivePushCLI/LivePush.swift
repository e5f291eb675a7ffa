import ArgumentParser
import Foundation

@main
struct LivePush: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livepush",
        abstract: "Keep iOS Live Activities up to date through APNs.",
        version: BuildInfo.versionLine,
        subcommands: [
            KeygenCommand.self,
            JWTCommand.self,
            SendCommand.self,
            ChannelsCommand.self,
            SimulatorCommand.self,
            ServeCommand.self,
            KeysCommand.self,
            DemoCommand.self,
        ]
    )

    /// Parses and runs the command. A `ValidationError` thrown while it runs (a missing credential found
    /// once the environment is read, say) is reported with that command's usage: ArgumentParser's own
    /// `main` would show the root's `livepush <subcommand>`.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(nil)
        } catch {
            exit(withError: error)
        }
        if command is ServeCommand { ServeCommand.runTasksOnEventLoops() }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let error as ValidationError {
            TerminalOutput.error(failureMessage(error, command: type(of: command)))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }

    /// `Error: …`, then the usage of `command` and where its help is, as ArgumentParser prints a
    /// validation error found while parsing.
    static func failureMessage(_ error: ValidationError, command: any ParsableCommand.Type) -> String {
        let path = (["livepush"] + (commandPath(to: command, from: LivePush.self) ?? [])).joined(separator: " ")
        return """
            Error: \(error.message)
            Usage: \(usageString(for: command))
              See '\(path) --help' for more information.
            """
    }

    /// The subcommand names from `root` down to `target` (empty for the root itself).
    private static func commandPath(to target: any ParsableCommand.Type, from root: any ParsableCommand.Type) -> [String]? {
        if ObjectIdentifier(target) == ObjectIdentifier(root) { return [] }
        for child in root.configuration.subcommands {
            if let rest = commandPath(to: target, from: child) { return [child._commandName] + rest }
        }
        return nil
    }
}
