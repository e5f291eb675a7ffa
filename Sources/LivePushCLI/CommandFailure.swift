/// A problem found while a command runs (bad input detected after parsing, an unusable file): printed as
/// `Error: <message>` without the usage text, with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) { description = message }
}
