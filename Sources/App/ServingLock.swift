import Foundation

/// Tells whether a data folder is in use. `serve` holds an exclusive lock on `DATA/fieldbook.serving` while it runs, so
/// a second `serve` of the folder is refused rather than sharing the database with the first (two servers would each
/// run the folder's background work, and the second would answer on its own port with half the live updates); so is a
/// `hub-migrate` of a SQLite hub still serving, whose later writes the move would miss. The holder writes what it is
/// into the file, so the refusal can name it. The kernel lets go of the lock when its process ends, even killed with
/// `kill -9`, so a crash leaves nothing to clean up. Commands that only add to a served folder (create-user, backup)
/// take none; `restore`, which replaces the database, takes it.
public final class ServingLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    private static let server = "fieldbook serve"
    private static let migration = "fieldbook hub-migrate"

    /// Held by a server for as long as it serves `folder`.
    public static func serving(_ folder: String) throws -> ServingLock {
        try take(folder, holder: server) { holder in
            if holder.hasPrefix(migration) {
                return """
                    A hub-migrate (\(holder)) is moving the hub in \(folder) to PostgreSQL. Serve the PostgreSQL hub once it \
                    has finished (fieldbook hub --database-url …), not this folder.
                    """
            }
            return """
                \(DataFolderRules.absolute(folder)) is already in use by another Fieldbook (\(holder)). Use the one that is \
                running, or stop it first (systemctl stop fieldbook, or Ctrl-C where it was started); to serve a second \
                Fieldbook on this machine, give it a data folder of its own with --data.
                """
        }
    }

    /// Held by a command that must be the only one using `folder`.
    public static func alone(_ folder: String) throws -> ServingLock {
        try take(folder, holder: migration) { holder in
            """
            The hub in \(folder) is still serving. Stop it (\(holder)), and every fieldbook serve of that folder, first, \
            so that nothing it accepts afterwards is left behind, then run hub-migrate again.
            """
        }
    }

    /// Held by `fieldbook restore` while it replaces the folder's database, which nothing may have open.
    public static func restoring(_ folder: String) throws -> ServingLock {
        try take(folder, holder: "fieldbook restore") { holder in
            """
            \(DataFolderRules.absolute(folder)) is in use by \(holder); nothing was changed. Stop it first (systemctl stop \
            fieldbook, or Ctrl-C where it was started), then run restore again.
            """
        }
    }

    /// Locks the folder's file and writes `holder` with this process's id into it, or refuses with the words `refusal`
    /// gives for the process holding it. Creates the folder, for its owner alone, when it is not there yet.
    private static func take(_ folder: String, holder: String, refusal: (String) -> String) throws -> ServingLock {
        try createDataFolder(folder)
        let path = (folder as NSString).appendingPathComponent("fieldbook.serving")
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let current = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            if reason == EWOULDBLOCK { throw Refusal(refusal(current.flatMap { $0.isEmpty ? nil : $0 } ?? "another process")) }
            throw POSIXError(.init(rawValue: reason) ?? .EIO)
        }
        let text = "\(holder), process \(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        return ServingLock(descriptor: descriptor)
    }
}
