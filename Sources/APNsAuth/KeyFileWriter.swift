import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a key could not be written.
public enum KeyFileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists and overwriting was not asked for.
    case fileExists(path: String)
    /// The operating system refused (the path, the failing step and the system's message are kept).
    case systemError(path: String, operation: String, message: String)

    public var description: String {
        switch self {
        case .fileExists(let path):
            return "\(path) already exists; refusing to overwrite a key (pass --force to replace it)"
        case .systemError(let path, let operation, let message):
            return "cannot write \(path): \(operation) failed: \(message)"
        }
    }
}

extension APNsSigningKey {
    /// Writes the key as a `.p8` file (PKCS#8 PEM) readable only by its owner (mode 0600). Without
    /// `overwrite`, an existing file is an error; with it, the file is replaced atomically.
    public func write(toFile path: String, overwrite: Bool) throws(KeyFileWriteError) {
        let contents = Array(pemRepresentation.utf8)
        if !overwrite {
            try Self.writeExclusive(contents, to: path, reportedPath: path)
            return
        }
        let temporary = path + ".tmp-" + UUID().uuidString
        try Self.writeExclusive(contents, to: temporary, reportedPath: path)
        guard rename(temporary, path) == 0 else {
            let message = Self.lastErrorMessage()
            unlink(temporary)
            throw .systemError(path: path, operation: "replacing the file", message: message)
        }
    }

    private static func writeExclusive(_ bytes: [UInt8], to path: String, reportedPath: String) throws(KeyFileWriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw .fileExists(path: reportedPath) }
            throw .systemError(path: reportedPath, operation: "creating the file", message: lastErrorMessage())
        }
        var failure: String?
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = lastErrorMessage()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = lastErrorMessage() }
        if close(descriptor) != 0, failure == nil { failure = lastErrorMessage() }
        if let failure {
            unlink(path)
            throw .systemError(path: reportedPath, operation: "writing the file", message: failure)
        }
    }

    private static func lastErrorMessage() -> String { String(cString: strerror(errno)) }
}

/// The C `write(2)`, reachable by another name inside `APNsSigningKey`, whose `write(toFile:)` hides it.
private func posixWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, pointer, count)
}
