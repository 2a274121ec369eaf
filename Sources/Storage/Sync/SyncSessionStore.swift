import Domain
import Foundation
import GRDB

/// One run of the sync engine and what it did.
public struct SyncSessionRecord: Sendable, Equatable {
    /// How a session ended: `paused` by "Pause", `cancelled` by "Cancel this sync", `interrupted` by the server stopping
    /// (or, found still running at start, by a crash).
    public enum Outcome: String, Sendable { case running, succeeded, failed, cancelled, paused, interrupted }

    public let id: Int64
    public let startedAt: Date
    public let finishedAt: Date?
    public let outcome: Outcome
    public var statistics: SyncStatistics
    public let error: String?

    /// Seconds from start to finish (nil while running).
    public var duration: TimeInterval? { finishedAt.map { $0.timeIntervalSince(startedAt) } }

    /// Operations the hub refused in a session that otherwise ran to its end.
    public var refused: Int { outcome == .succeeded ? statistics.failures : 0 }
}

/// Counts a sync session reports.
public struct SyncStatistics: Sendable, Equatable {
    public var pushed = 0
    public var pulled = 0
    public var merged = 0
    public var conflicts = 0
    public var failures = 0
    /// Photo files sent to the hub and received from it: a session may move only files (photos whose records synced
    /// before their files could go), and that is work done, not a check that found nothing.
    public var photosSent = 0
    public var photosReceived = 0

    public init(pushed: Int = 0, pulled: Int = 0, merged: Int = 0, conflicts: Int = 0, failures: Int = 0,
                photosSent: Int = 0, photosReceived: Int = 0) {
        (self.pushed, self.pulled, self.merged, self.conflicts, self.failures) = (pushed, pulled, merged, conflicts, failures)
        (self.photosSent, self.photosReceived) = (photosSent, photosReceived)
    }

    /// Every count with the `sync_sessions` column that keeps it.
    static let columns: [(name: String, count: WritableKeyPath<SyncStatistics, Int> & Sendable)] = [
        ("pushed", \.pushed), ("pulled", \.pulled), ("merged", \.merged), ("conflicts", \.conflicts), ("failures", \.failures),
        ("photos_sent", \.photosSent), ("photos_received", \.photosReceived),
    ]

    init(row: Row) {
        self.init()
        for column in Self.columns { self[keyPath: column.count] = row[column.name] }
    }
}

/// The history of sync sessions.
extension AppDatabase {
    public func startSyncSession() throws -> Int64 {
        try writeLocal { db in
            try db.execute(sql: "INSERT INTO sync_sessions (started_at, outcome) VALUES (?, 'running')", arguments: [Date().storedText])
            return db.lastInsertedRowID
        }
    }

    /// A session that succeeded without exchanging anything is kept only as the latest check (`lastEmptyCheck`): the
    /// history lists sessions that did something, and would otherwise fill with a row every interval.
    public func finishSyncSession(_ id: Int64, outcome: SyncSessionRecord.Outcome, statistics: SyncStatistics, error: String?) throws {
        let counts = SyncStatistics.columns
        var values: [(any DatabaseValueConvertible)?] = [Date().storedText, outcome.rawValue]
        values += counts.map { statistics[keyPath: $0.count] }
        values += [error, id]
        try writeLocal { db in
            try db.execute(sql: """
                UPDATE sync_sessions SET finished_at = ?, outcome = ?, \(counts.map { "\($0.name) = ?" }.joined(separator: ", ")),
                error = ? WHERE id = ?
                """, arguments: StatementArguments(values))
            try db.execute(sql: "DELETE FROM sync_sessions WHERE \(Self.emptyCheck) AND id < (SELECT MAX(id) FROM sync_sessions WHERE \(Self.emptyCheck))")
        }
    }

    /// A succeeded session that sent, received and was refused nothing: every count is zero. The one statement of that
    /// rule, for what is listed, what is kept and when the last check was.
    private static let emptyCheck = "outcome = 'succeeded' AND "
        + SyncStatistics.columns.map { "\($0.name) = 0" }.joined(separator: " AND ")

    /// Sessions still marked running when the process starts were cut off by a crash or kill.
    public func markInterruptedSyncSessions() throws {
        try writeLocal { db in
            try db.execute(sql: "UPDATE sync_sessions SET outcome = 'interrupted', finished_at = started_at WHERE outcome = 'running'")
        }
    }

    /// The newest sessions that exchanged something, were stopped or failed; sessions that found nothing to exchange
    /// are left to `lastEmptyCheck`.
    public func syncSessions(limit: Int = 20) throws -> [SyncSessionRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sync_sessions WHERE NOT (\(Self.emptyCheck)) ORDER BY id DESC LIMIT ?",
                             arguments: [limit]).map(SyncSessionRecord.init(row:))
        }
    }

    /// When a session last found nothing to send or receive.
    public func lastEmptyCheck() throws -> Date? {
        try read { try Date.fetchOne($0, sql: "SELECT MAX(finished_at) FROM sync_sessions WHERE \(Self.emptyCheck)") }
    }

    public func lastSuccessfulSync() throws -> Date? {
        try read { try Date.fetchOne($0.cachedStatement(sql: "SELECT MAX(finished_at) FROM sync_sessions WHERE outcome = 'succeeded'")) }
    }
}

extension SyncSessionRecord {
    init(row: Row) {
        self.init(id: row["id"], startedAt: row["started_at"], finishedAt: row["finished_at"],
                  outcome: Outcome(rawValue: row["outcome"]) ?? .failed,
                  statistics: SyncStatistics(row: row),
                  error: row["error"])
    }
}
