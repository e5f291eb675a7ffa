import ArgumentParser

/// The message argument-parser prints for the error that parsing `arguments` with `command` causes; nil
/// when they parse.
func parseMessage<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> String? {
    do {
        _ = try command.parse(arguments)
        return nil
    } catch {
        return command.message(for: error)
    }
}
