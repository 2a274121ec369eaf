import Domain
import Foundation
import GRDB
import Logging
import Synchronization

/// Writes queued imports, one at a time, on its own thread, so a long import neither holds a request open nor is lost
/// when the page is closed. Progress is kept here for the import's page; a cancel or a stop rolls the import's one
/// transaction back. A stop puts the import back in the queue (as does a start after a crash), so it runs again at the
/// next start.
public final class ImportRunner: QueuedJobRunner {
    /// How far the import being written is.
    public struct Progress: Sendable, Equatable {
        public let job: UUID
        public let done: Int
        public let total: Int
    }

    private struct State {
        var current: Progress?
        var cancelled = Set<UUID>()
    }

    public static let jobs = "imports"
    private let database: AppDatabase
    public let logger: Logger
    /// Opens an uploaded archive by its path (the HTTP server's ZIP reader; Storage reads no ZIP itself).
    private let openArchive: @Sendable (String) throws -> ArchiveFiles
    private let state = Mutex(State())
    public let worker: BackgroundWorker

    public init(database: AppDatabase, logger: Logger, openArchive: @escaping @Sendable (String) throws -> ArchiveFiles = ImportRunner.readsNoArchives) {
        (self.database, self.logger, self.openArchive) = (database, logger, openArchive)
        let made = ImportRunner.makeWorker(name: "fieldbook-imports", recheckInterval: 30)
        worker = made.worker
        made.attach(self)
    }

    /// For a runner given no archive reader (tests of CSV imports): an archive's restore fails with this message.
    public static let readsNoArchives: @Sendable (String) throws -> ArchiveFiles = { _ in
        throw ImportRefusal(message: "This Fieldbook was started without a way to read archives.")
    }

    public func requeueInterrupted() throws { try database.requeueInterruptedImports() }

    /// The import being written, when it is `job`.
    public func progress(of job: UUID) -> Progress? {
        state.withLock { $0.current?.job == job ? $0.current : nil }
    }

    /// Cancels a queued import, or the one being written (its transaction is rolled back, nothing of it kept).
    public func cancel(_ job: UUID) throws {
        // Marked first, so an import the thread takes up meanwhile still sees the cancel.
        state.withLock { _ = $0.cancelled.insert(job) }
        var after = ImportState.failed
        defer { if after != .running { state.withLock { _ = $0.cancelled.remove(job) } } }
        after = try database.cancelQueuedImport(job)
    }

    /// Writes every queued import now, oldest first; returns how many ran.
    @discardableResult
    public func runOnce() -> Int {
        var count = 0
        while !isStopping, let job = try? database.nextQueuedImport() {
            write(job)
            count += 1
        }
        return count
    }

    private var isStopping: Bool { worker.isStopping }

    private func write(_ job: ImportJob) {
        state.withLock { $0.current = Progress(job: job.id, done: 0, total: job.rowCount) }
        defer { state.withLock { $0.current = nil; $0.cancelled.remove(job.id) } }
        let ending: (ImportState, ImportOutcome, String?)
        var note: String?
        do {
            // Cancelled between being read from the queue and now.
            guard try database.startImport(job.id) else { return }
            let progress = { (done: Int) in self.state.withLock { $0.current = Progress(job: job.id, done: done, total: job.rowCount) } }
            let isCancelled = { self.isStopping || self.state.withLock { $0.cancelled.contains(job.id) } }
            if let path = job.archivePath {
                let restored = try database.writeArchive(job, try openArchive(path), by: .user(job.createdBy), progress: progress, isCancelled: isCancelled)
                (ending, note) = ((.done, restored.0, nil), restored.note)
                try? FileManager.default.removeItem(atPath: path)
            } else {
                ending = (.done, try database.writeImport(job, by: .user(job.createdBy), progress: progress, isCancelled: isCancelled), nil)
            }
        } catch is ImportCancelled {
            // A person's cancel wins over a stop, which would otherwise queue the import to run again.
            let cancelled = state.withLock { $0.cancelled.contains(job.id) }
            ending = cancelled || !isStopping ? (.cancelled, ImportOutcome(), nil) : (.queued, ImportOutcome(), nil)
        } catch let refusal as ImportRefusal {
            ending = (.failed, ImportOutcome(), refusal.message)
        } catch {
            logger.error("an import failed", metadata: ["import": "\(job.id)", "error": "\(String(reflecting: error))"])
            ending = (.failed, ImportOutcome(), "The import stopped on an error, so nothing of it was kept. Try again; if it fails again, tell the person who runs Fieldbook.")
        }
        // A large import fills the writer's page cache; an idle node should not keep it.
        database.releaseMemory()
        do {
            try database.finishImport(job.id, ending.0, ending.1, failure: ending.2, note: note)
        } catch {
            logger.error("could not record how an import ended", metadata: ["import": "\(job.id)", "error": "\(error)"])
        }
    }
}

extension AppDatabase {
    /// The oldest import waiting to be written.
    func nextQueuedImport() throws -> ImportJob? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM import_jobs WHERE state = 'queued' ORDER BY created_at LIMIT 1").map(ImportJob.init) }
    }

    /// Marks a queued import as being written; false when it is no longer queued.
    func startImport(_ job: UUID) throws -> Bool {
        try writeLocal { db in
            try db.execute(sql: "UPDATE import_jobs SET state = 'running' WHERE id = ? AND state = 'queued'", arguments: [job.databaseText])
            return db.changesCount == 1
        }
    }

    func finishImport(_ job: UUID, _ state: ImportState, _ outcome: ImportOutcome, failure: String?, note: String? = nil) throws {
        try writeLocal { db in
            try db.execute(sql: """
                UPDATE import_jobs SET state = ?, created_count = ?, merged_count = ?, skipped_count = ?, failure = ?, finished_at = ?, note = ?
                WHERE id = ?
                """, arguments: [state.rawValue, outcome.created, outcome.merged, outcome.skipped, failure,
                                 state.isOver ? Date().storedText : nil, note, job.databaseText])
        }
    }

    /// An import that was being written when Fieldbook stopped kept nothing (its transaction never committed): it waits
    /// again.
    func requeueInterruptedImports() throws {
        try writeLocal { try $0.execute(sql: "UPDATE import_jobs SET state = 'queued' WHERE state = 'running'") }
    }

    /// A queued import that has not begun is cancelled at once; one being written is cancelled by its runner. Returns
    /// the import's state after.
    func cancelQueuedImport(_ job: UUID) throws -> ImportState {
        try writeLocal { db in
            let stored = try Self.importJob(db, job)
            guard stored.state == .queued else { return stored.state }
            try db.execute(sql: "UPDATE import_jobs SET state = 'cancelled', finished_at = ? WHERE id = ?", arguments: [Date().storedText, job.databaseText])
            return .cancelled
        }
    }
}
