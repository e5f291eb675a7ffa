import Foundation
import Logging

/// The database file and its WAL and shared-memory files are readable by the server's user only: the
/// file holds the app-token signing secret in clear. SQLite creates a new file 0644 less the umask and
/// gives its WAL and shared-memory files the mode of the database file, so creating the file 0600 first
/// covers all three; files left looser by an earlier version (or by hand) are tightened and it is logged.
enum SQLiteFileMode {
    /// Creates `path` owner-only when it does not exist, and takes group and other access away from it
    /// and its companions when they have any. A file that cannot be tightened (not ours) is logged.
    static func secure(path: String, logger: Logger) throws(PushStoreError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode_t(0o600))
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw .unavailable(detail: "cannot create the SQLite database at '\(path)': \(String(cString: strerror(errno)))")
        }
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            let mode = info.st_mode & 0o777
            guard mode & 0o077 != 0 else { continue }
            let tightened = mode & 0o700
            let octal = { (mode: mode_t) in "0" + String(mode, radix: 8) }
            if chmod(file, tightened) == 0 {
                logger.notice(
                    "tightened a SQLite file to owner-only access: it holds the app-token signing secret",
                    metadata: ["file": "\(file)", "was": "\(octal(mode))", "now": "\(octal(tightened))"])
            } else {
                logger.warning(
                    "a SQLite file is readable by other users and could not be tightened; it holds the app-token signing secret: chmod 600 it",
                    metadata: ["file": "\(file)", "mode": "\(octal(mode))", "error": "\(String(cString: strerror(errno)))"])
            }
        }
    }
}
