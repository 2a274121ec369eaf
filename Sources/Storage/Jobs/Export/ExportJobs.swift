import Domain
import Foundation
import GRDB

/// An archive prepared in the background, so a long export shows progress and can be cancelled: the person asks for
/// it, follows its progress, and downloads the finished file, which is kept a day.
public struct ExportJob: Sendable, Equatable {
    public enum State: String, Sendable {
        case queued, running, done, failed, cancelled

        public var isWorking: Bool { self == .queued || self == .running }
    }

    public let id: UUID
    public let scope: ExportScope
    public let format: ExportFormat
    public let createdBy: UUID
    public let createdAt: Date
    public let state: State
    /// Records in the archive (when done), or in the scope when it was asked for.
    public let records: Int
    public let fileBytes: Int?
    public let finishedAt: Date?
    public let failure: String?
}

enum ExportJobSchema {
    static let tables = """
            CREATE TABLE export_jobs (
                id TEXT PRIMARY KEY NOT NULL,
                scope TEXT NOT NULL,
                format TEXT NOT NULL,
                created_by TEXT NOT NULL,
                created_at TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued','running','done','failed','cancelled')),
                records INTEGER NOT NULL DEFAULT 0,
                file_bytes INTEGER,
                finished_at TEXT,
                failure TEXT
            );
            CREATE INDEX export_jobs_state ON export_jobs(state, created_at);
            """
}

extension ExportScope {
    /// The scope as `export_jobs` keeps it: "everything", "area:<id>", "activity:<id>".
    var storedText: String {
        switch self {
        case .everything: "everything"
        case .area(let id): "area:" + id.lowercaseText
        case .activity(let id): "activity:" + id.lowercaseText
        }
    }

    init?(storedText text: String) {
        if text == "everything" { self = .everything; return }
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = UUID(uuidString: parts[1]) else { return nil }
        switch parts[0] {
        case "area": self = .area(id)
        case "activity": self = .activity(id)
        default: return nil
        }
    }
}

extension AppDatabase {
    /// Where prepared archives are written: beside the database (a `/tmp` in memory would not hold a large one).
    public var exportsDirectory: String { folderBeside("exports") }

    public func exportFile(_ job: UUID) -> String { (exportsDirectory as NSString).appendingPathComponent(job.lowercaseText + ".zip") }

    /// How long a prepared archive is kept for its download.
    public static let exportKeptFor: TimeInterval = 24 * 3600

    public func queueExport(_ scope: ExportScope, as format: ExportFormat, by user: UUID) throws -> ExportJob {
        let records = try archiveRecordCount(scope)
        let id = UUID()
        try writeLocal { db in
            try db.execute(sql: """
                INSERT INTO export_jobs (id, scope, format, created_by, created_at, state, records) VALUES (?, ?, ?, ?, ?, 'queued', ?)
                """, arguments: [id.databaseText, scope.storedText, format.rawValue, user.databaseText, Date().storedText, records])
        }
        return try exportJob(id: id)
    }

    public func exportJob(id: UUID) throws -> ExportJob {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM export_jobs WHERE id = ?", arguments: [id.databaseText]) else {
                throw DomainError.notFound(entity: "export")
            }
            return Self.exportJob(row)
        }
    }

    /// The oldest export waiting to be written, marked running.
    public func takeQueuedExport() throws -> ExportJob? {
        try writeLocal { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM export_jobs WHERE state = 'queued' ORDER BY created_at LIMIT 1") else { return nil }
            try db.execute(sql: "UPDATE export_jobs SET state = 'running' WHERE id = ?", arguments: [row["id"] as String])
            return Self.exportJob(row)
        }
    }

    /// Ends an export being written; false when it is no longer running (it was cancelled meanwhile).
    @discardableResult
    public func finishExport(_ job: UUID, _ state: ExportJob.State, records: Int? = nil, fileBytes: Int? = nil, failure: String? = nil) throws -> Bool {
        try writeLocal { db in
            try db.execute(sql: """
                UPDATE export_jobs SET state = ?, records = COALESCE(?, records), file_bytes = ?, failure = ?, finished_at = ?
                WHERE id = ? AND state = 'running'
                """, arguments: [state.rawValue, records, fileBytes, failure, Date().storedText, job.databaseText])
            return db.changesCount == 1
        }
    }

    /// Cancels an export still waiting or being written (the runner stops it and removes its file); false when it had ended.
    public func markExportCancelled(_ job: UUID) throws -> Bool {
        try writeLocal { db in
            try db.execute(sql: "UPDATE export_jobs SET state = 'cancelled', finished_at = ? WHERE id = ? AND state IN ('queued','running')",
                           arguments: [Date().storedText, job.databaseText])
            return db.changesCount == 1
        }
    }

    /// At start: an export a stop or a crash cut off is written again from the beginning.
    public func requeueInterruptedExports() throws {
        try writeLocal { db in try db.execute(sql: "UPDATE export_jobs SET state = 'queued' WHERE state = 'running'") }
    }

    /// Removes archives older than `exportKeptFor`, and their jobs.
    @discardableResult
    public func removeExpiredExports(now: Date = Date()) throws -> Int {
        let expired = try writeLocal { db -> [String] in
            let cutoff = now.addingTimeInterval(-Self.exportKeptFor).storedText
            let ids = try String.fetchAll(db, sql: "SELECT id FROM export_jobs WHERE state NOT IN ('queued','running') AND finished_at < ?",
                                          arguments: [cutoff])
            try db.execute(sql: "DELETE FROM export_jobs WHERE state NOT IN ('queued','running') AND finished_at < ?", arguments: [cutoff])
            return ids
        }
        for id in expired.compactMap(UUID.init(uuidString:)) { try? FileManager.default.removeItem(atPath: exportFile(id)) }
        return expired.count
    }

    private static func exportJob(_ row: Row) -> ExportJob {
        let finished: String? = row["finished_at"]
        return ExportJob(id: row.uuid("id"), scope: ExportScope(storedText: row["scope"]) ?? .everything,
                         format: ExportFormat(rawValue: row["format"]) ?? .json, createdBy: row.uuid("created_by"),
                         createdAt: row.storedDate("created_at"), state: ExportJob.State(rawValue: row["state"]) ?? .failed,
                         records: row["records"], fileBytes: row["file_bytes"],
                         finishedAt: finished == nil ? nil : row.storedDate("finished_at"), failure: row["failure"])
    }
}
