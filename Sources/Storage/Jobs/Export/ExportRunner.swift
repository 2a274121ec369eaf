import Domain
import Foundation
import Logging
import Synchronization

/// Writes archives people asked for (`ExportJob`) one at a time on its own thread, into a file beside the database,
/// so a long export shows its progress and can be cancelled, and its download is a finished file (sent from its
/// descriptor, resumable by the browser). A cancel or a stop removes the part written; an export cut off by a stop or
/// a crash is written again at the next start.
public final class ExportRunner: QueuedJobRunner {
    public static let jobs = "exports"
    private let database: AppDatabase
    public let logger: Logger
    public let worker: BackgroundWorker
    /// A new archive's encoder (Archives' ZIP writer, given by Surface).
    private let newArchive: @Sendable () -> any ArchiveEncoder
    /// The export being written and how many of its records are written.
    private let current = Mutex<(job: UUID, done: Int)?>(nil)
    private let cancelled = Mutex<Set<UUID>>([])

    public init(database: AppDatabase, logger: Logger, newArchive: @escaping @Sendable () -> any ArchiveEncoder) {
        (self.database, self.logger, self.newArchive) = (database, logger, newArchive)
        let made = ExportRunner.makeWorker(name: "fieldbook-exports", recheckInterval: 3600)
        worker = made.worker
        made.attach(self)
    }

    /// Exports cut off are written again; expired ones are removed.
    public func requeueInterrupted() throws {
        try database.requeueInterruptedExports()
        try database.removeExpiredExports()
    }

    /// How many records of `job` are written, while it is being written.
    public func progress(of job: UUID) -> Int? {
        current.withLock { $0?.job == job ? $0?.done : nil }
    }

    /// Cancels an export waiting or being written; false when it had already ended.
    public func cancel(_ job: UUID) throws -> Bool {
        cancelled.withLock { _ = $0.insert(job) }
        return try database.markExportCancelled(job)
    }

    /// Writes every waiting export; answers how many were taken.
    @discardableResult
    public func runOnce() -> Int {
        var taken = 0
        do {
            try database.removeExpiredExports()
            while !worker.isStopping, let job = try database.takeQueuedExport() {
                taken += 1
                write(job)
            }
        } catch {
            logger.error("taking an export failed; it is tried again later", metadata: ["error": "\(error)"])
        }
        return taken
    }

    private func write(_ job: ExportJob) {
        let final = database.exportFile(job.id), partial = final + ".partial"
        current.withLock { $0 = (job.id, 0) }
        defer { current.withLock { $0 = nil } }
        do {
            try FileManager.default.createDirectory(atPath: database.exportsDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
                throw ExportFileError.cannotCreate
            }
            defer { try? handle.close() }
            var archive = ArchiveFile(encoder: newArchive(), handle: handle) { [self] done in
                current.withLock { $0 = (job.id, done) }
                return !worker.isStopping && !cancelled.withLock { $0.contains(job.id) }
            }
            try database.exportArchive(job.scope, as: job.format, into: &archive)
            guard archive.finished else {
                // Cancelled (already marked) or stopping (still marked running, so the next start writes it again).
                try? FileManager.default.removeItem(atPath: partial)
                return
            }
            try handle.synchronize()
            // A file left by a crash between this move and the job's end is an older copy of the same export.
            try? FileManager.default.removeItem(atPath: final)
            try FileManager.default.moveItem(atPath: partial, toPath: final)
            guard try database.finishExport(job.id, .done, records: archive.records, fileBytes: archive.bytes) else {
                // Cancelled as it ended: the person was told so, and nothing is kept.
                try? FileManager.default.removeItem(atPath: final)
                return
            }
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            logger.error("an export failed", metadata: ["error": "\(String(reflecting: error))"])
            _ = try? database.finishExport(job.id, .failed, failure: "The export could not be written (\(error)). Free some disk space if it is full, then prepare it again.")
        }
    }
}

private enum ExportFileError: Error, CustomStringConvertible {
    case cannotCreate
    var description: String { "the file for the archive could not be made" }
}

/// Encodes an export's files as one archive, answering each part's bytes to write.
public protocol ArchiveEncoder {
    mutating func beginMember(_ name: String) throws -> [UInt8]
    mutating func write(_ bytes: [UInt8]) throws -> [UInt8]
    mutating func finish() throws -> [UInt8]
}

/// An export's files as an archive written to a file, telling its progress (which answers false to stop).
private struct ArchiveFile: ExportArchive {
    var encoder: any ArchiveEncoder
    let handle: FileHandle
    let told: (Int) -> Bool
    private(set) var finished = false
    private(set) var records = 0
    private(set) var bytes = 0

    init(encoder: any ArchiveEncoder, handle: FileHandle, told: @escaping (Int) -> Bool) {
        self.encoder = encoder
        self.handle = handle
        self.told = told
    }

    mutating func begin(file name: String) throws -> Bool { try written(encoder.beginMember(name)) }
    mutating func write(_ bytes: [UInt8]) throws -> Bool { try written(encoder.write(bytes)) }

    mutating func finish() throws {
        _ = try written(encoder.finish())
        finished = true
    }

    mutating func progress(records: Int) -> Bool {
        self.records = records
        return told(records)
    }

    private mutating func written(_ part: [UInt8]) throws -> Bool {
        if !part.isEmpty {
            try handle.write(contentsOf: part)
            bytes += part.count
        }
        return told(records)
    }
}
