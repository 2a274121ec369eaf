import Foundation
import Logging

/// Checks participants brought in by sync for possible duplicates here, in the background (`SyncedDuplicates`). The
/// change feed wakes it when a pull or a push brought participants; it also looks once a minute, for what a stop left.
/// Owned by the app: start, stop, and `runOnce` for tests.
public final class DuplicateScout: Sendable {
    private let database: AppDatabase
    private let logger: Logger
    private let worker: BackgroundWorker

    public init(database: AppDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
        let check: @Sendable () -> Void = { [database, logger] in Self.checkAll(database, logger) }
        worker = BackgroundWorker(name: "fieldbook-duplicate-scout", recheckInterval: 60, work: check)
        worker.wake(on: database.changeFeed) { committed in
            committed.origin != .local && committed.changes.contains { $0.kind == "participant" && $0.operation == .create }
        }
    }

    public func start() { worker.start() }
    public func stop() { worker.stop() }

    @discardableResult
    public func runOnce() -> Int { Self.checkAll(database, logger) }

    @discardableResult
    private static func checkAll(_ database: AppDatabase, _ logger: Logger) -> Int {
        var found = 0
        do {
            // Bounded, so a stop is not kept waiting behind a long queue; the rest waits for the next run.
            for _ in 0..<20 where try database.hasQueuedDuplicateChecks() { found += try database.checkSyncedParticipants() }
        } catch {
            logger.error("checking synced participants for duplicates failed; they are checked again later", metadata: ["error": "\(error)"])
        }
        return found
    }
}
