import Foundation

/// Tells whether a data folder is being served. `serve` holds a shared lock on `DATA/fieldbook.serving` while it runs
/// (several may); `hub-migrate` must hold it alone, so it refuses a SQLite hub that is still serving, whose
/// later writes the move would miss. The kernel lets go of the lock when its process ends, even killed with `kill -9`,
/// so a crash leaves nothing to clean up. Commands that only add to a served folder (create-user, backup) take none.
public final class ServingLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Held by a server for as long as it serves `folder`.
    public static func serving(_ folder: String) throws -> ServingLock {
        try take(folder, LOCK_SH, refusal: """
            A hub-migrate is moving the hub in \(folder) to PostgreSQL. Serve the PostgreSQL hub once it has finished \
            (fieldbook hub --database-url …), not this folder.
            """)
    }

    /// Held by a command that must be the only one using `folder`.
    public static func alone(_ folder: String) throws -> ServingLock {
        try take(folder, LOCK_EX, refusal: """
            The hub in \(folder) is still serving. Stop it (and every fieldbook serve of that folder) first, so that \
            nothing it accepts afterwards is left behind, then run hub-migrate again.
            """)
    }

    private static func take(_ folder: String, _ kind: Int32, refusal: String) throws -> ServingLock {
        let path = (folder as NSString).appendingPathComponent("fieldbook.serving")
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, kind | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK { throw InvalidInput(refusal) }
            throw POSIXError(.init(rawValue: reason) ?? .EIO)
        }
        return ServingLock(descriptor: descriptor)
    }
}
