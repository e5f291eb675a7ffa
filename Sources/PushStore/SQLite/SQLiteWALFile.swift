import Foundation

/// The database's `-wal` file, opened once for ``SQLiteWALSyncer`` to sync: `fdatasync` writes the file's
/// data (and its length, when it grew), whichever descriptor wrote it, so SQLite's writes through its own
/// descriptor are on disk once it returns.
///
/// Opened once, after the writer's first transaction has created the file, and kept open until the store
/// closes: SQLite deletes the log only when the last connection to the database closes
/// (https://www.sqlite.org/wal.html#the_wal_file), and the store's connections stay open as long as this
/// does; starting the log again after a checkpoint, or truncating it, writes the same file (inode). The
/// directory is synced once when the file is opened, so that the log's name is on disk before any commit
/// is said to be (SQLite does this itself at its first sync of a new log, which `synchronous=NORMAL`
/// leaves to the first checkpoint). This descriptor takes no lock, so closing it releases none of
/// SQLite's: in WAL mode those are on the `-shm` and database files (https://www.sqlite.org/walformat.html).
final class SQLiteWALFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens `databasePath` + `-wal` (it must exist) and syncs its directory.
    init(databasePath: String) throws(PushStoreError) {
        path = databasePath + "-wal"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unavailable(detail: "cannot open the SQLite log '\(path)': \(Self.lastError())") }
        self.descriptor = descriptor
        let directory = (path as NSString).deletingLastPathComponent
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0, fsync(folder) == 0 else {
            let failure = Self.lastError()
            if folder >= 0 { closeDescriptor(folder) }
            closeDescriptor(descriptor)
            throw .unavailable(detail: "cannot sync the directory of the SQLite log '\(path)': \(failure)")
        }
        closeDescriptor(folder)
    }

    /// Writes the log's data to disk; throws when the system could not (see ``SQLiteWALSyncer``).
    func sync() -> Result<Void, PushStoreError> {
        while fdatasync(descriptor) != 0 {
            if errno == EINTR { continue }
            return .failure(.unavailable(detail: "fdatasync of '\(path)' failed: \(Self.lastError())"))
        }
        return .success(())
    }

    /// Closes the descriptor; called once, after the last sync.
    func close() {
        closeDescriptor(descriptor)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// The C `close(2)`, by another name inside ``SQLiteWALFile``, whose `close()` hides it.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
