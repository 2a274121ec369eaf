import Foundation
import Logging

/// Checks participants brought in by sync for possible duplicates here, in the background (`SyncedDuplicates`). The
/// change feed wakes it when a pull or a push brought participants; it also looks once a minute, for what a stop left.
public enum DuplicateScout {
    public static func chore(database: AppDatabase, logger: Logger) -> DatabaseChore {
        DatabaseChore(name: "fieldbook-duplicate-scout", recheckInterval: 60, database: database, logger: logger,
                      failure: "checking synced participants for duplicates failed; they are checked again later",
                      wakesOn: { $0.origin != .local && $0.changes.contains { $0.kind == "participant" && $0.operation == .create } },
                      work: checkQueued)
    }

    /// Bounded, so a stop is not kept waiting behind a long queue; the rest waits for the next run.
    private static func checkQueued(_ database: AppDatabase) throws -> Int {
        var found = 0
        for _ in 0..<20 where try database.hasQueuedDuplicateChecks() { found += try database.checkSyncedParticipants() }
        return found
    }
}
