import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines for the terminal, written at once (unbuffered), so progress shows even through a pipe.
///
/// The process ignores SIGPIPE (SwiftNIO's sockets need that), and Foundation's `FileHandle.write` traps
/// when its reader has gone (`livepush demo | head -3`). Here a closed reader is an answer instead:
/// the line is dropped and the caller learns that nobody reads any more.
enum TerminalOutput {
    /// Writes `text` and a line break to standard output; false when its reader has gone.
    @discardableResult
    static func line(_ text: String) -> Bool { write(text + "\n", to: STDOUT_FILENO) }

    /// Writes `text` and a line break to standard error; false when its reader has gone.
    @discardableResult
    static func error(_ text: String) -> Bool { write(text + "\n", to: STDERR_FILENO) }

    static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                    Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #elseif canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                    Musl.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
