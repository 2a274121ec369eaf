import Foundation
import Logging
import Synchronization

/// Backs the database and its photos up into the backup folder by itself, owned by `serve`: a backup is due when the
/// newest whole one is `interval` old (or there is none), is checked before it gets its name, and each success prunes
/// what retention no longer keeps. A failure is logged and shown, and tried again after `retryAfter`. Start, stop,
/// and `runOnce` for tests, with a clock the tests set.
public final class BackupService: Sendable {
    public let folder: BackupFolder
    private let database: AppDatabase
    /// The data folder, where a download's backup is written (the backup folder may be missing).
    private let scratch: BackupFolder
    private let interval: TimeInterval
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let state = Mutex((lastAttempt: Date?.none, lastFailure: (at: Date, reason: String)?.none, running: false, forced: false))
    private let worker: BackgroundWorker

    /// A failed backup is tried again after this, or after `interval` if that is shorter.
    static let retryAfter: TimeInterval = 3_600

    /// `folder`: `backups` in the data folder unless given.
    public init(database: AppDatabase, folder: BackupFolder? = nil, interval: TimeInterval = 86_400, logger: Logger,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        let dataFolder = (database.path as NSString).deletingLastPathComponent
        self.folder = folder ?? .inDataFolder(dataFolder)
        scratch = BackupFolder(path: dataFolder, createsItself: false)
        self.interval = interval
        self.logger = logger
        self.now = now
        let box = RunnerBox()
        worker = BackgroundWorker(name: "fieldbook.backups", recheckInterval: min(max(interval / 4, 1), 300), yieldsToRequests: true) {
            box.run?()
        }
        box.run = { [weak self] in _ = self?.runOnce() }
    }

    /// Clears what a backup cut short left, then backs up whenever one is due.
    public func start() {
        worker.start {
            folder.removeTemporaries()
            scratch.removeTemporaries()
        }
    }
    public func stop() { worker.stop() }

    /// Takes a backup soon, whether or not one is due (the page's "Back up now").
    public func backUpSoon() {
        state.withLock { $0.forced = true }
        worker.wake()
    }

    /// Takes a backup if one is due (or was asked for); answers the new backup's listing, nil when none was taken.
    @discardableResult
    public func runOnce() -> BackupListing? {
        let time = now()
        let starts = state.withLock { state -> Bool in
            guard !state.running, state.forced || isDue(at: time, lastAttempt: state.lastAttempt, failed: state.lastFailure != nil) else {
                return false
            }
            state = (lastAttempt: time, lastFailure: state.lastFailure, running: true, forced: false)
            return true
        }
        guard starts else { return nil }
        defer { state.withLock { $0.running = false } }
        do {
            // A stop does not wait for a large backup to finish: serve's stop must end within systemd's timeout.
            let listing = try takeBackup(at: time) { if worker.isStopping { throw BackupFailure.stopped } }
            state.withLock { $0.lastFailure = nil }
            folder.prune(now: time)
            return listing
        } catch {
            logger.error("backup failed", metadata: ["folder": "\(folder.path)", "error": "\(error)"])
            state.withLock { $0.lastFailure = (time, Self.reason(error)) }
            return nil
        }
    }

    /// What Home and the page say of a failed backup: a BackupFailure says what to do; anything else is in the log.
    static func reason(_ error: any Error) -> String {
        if let failure = error as? BackupFailure { return failure.description }
        return "The backup could not be written; Fieldbook's log says why. Check that the backup folder (--backup-dir or FIELDBOOK_BACKUP_DIR) is there and writable, and that its disk has room, then take one now on the backups page."
    }

    private func isDue(at time: Date, lastAttempt: Date?, failed: Bool) -> Bool {
        if failed, let lastAttempt, time.timeIntervalSince(lastAttempt) < min(interval, Self.retryAfter) { return false }
        guard let newest = folder.backups(now: time).listed.first?.listing.takenAt else { return true }
        return time.timeIntervalSince(newest) >= interval
    }

    /// Writes a backup aside in the folder, and renames it into place once whole and checked; nothing is left
    /// under a backup's name when it fails.
    func takeBackup(at time: Date, afterMember: () throws -> Void = {}) throws -> BackupListing {
        if let problem = folder.problem() { throw BackupFailure.folderUnusable(problem) }
        let temporary = folder.temporary(".zip")
        do {
            let contents = try database.writeBackupArchive(to: temporary, scratch: folder.temporary(".sqlite"), afterMember: afterMember)
            let path = try folder.place(temporary, takenAt: time)
            logger.info("backed up", metadata: ["file": "\(path)", "photos": "\(contents.photoFiles)"])
            return BackupListing(name: (path as NSString).lastPathComponent, path: path, takenAt: time, bytes: BackupFolder.bytes(of: path), kind: .daily)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// A fresh backup for a download: written in the data folder, handed to `open` and unlinked once open, so the
    /// open file is all there is of it and it goes when the download ends.
    public func withFreshBackup<Opened>(carrying dataFiles: BackupDataFiles, _ open: (String) throws -> Opened) throws -> Opened {
        let temporary = scratch.temporary(".zip")
        defer { unlink(temporary) }
        _ = try database.writeBackupArchive(to: temporary, scratch: scratch.temporary(".sqlite"), carrying: dataFiles)
        return try open(temporary)
    }

    public func status() -> BackupStatus {
        let (failure, running) = state.withLock { ($0.lastFailure, $0.running) }
        let found = folder.backups(now: now())
        return BackupStatus(folder: folder.path, folderProblem: folder.problem(), backups: found.listed.filter { $0.kept }.map { $0.listing },
                            datedAhead: found.datedAhead, lastFailure: failure, running: running)
    }
}
