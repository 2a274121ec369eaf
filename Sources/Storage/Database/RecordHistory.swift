import Domain
import Foundation
import GRDB
import Records

/// Who changed a record, when, and which fields: one row per change the write path records, in the same transaction
/// (node-local, like sessions; the hub keeps its own). Written by `ChangeRecorder`, read by the record pages.
enum RecordHistory {
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE record_history (
                id INTEGER PRIMARY KEY,
                entity TEXT NOT NULL,
                entity_id TEXT NOT NULL,
                operation TEXT NOT NULL,
                author TEXT NOT NULL,
                changed_at TEXT NOT NULL,
                fields TEXT NOT NULL
            );
            CREATE INDEX record_history_record ON record_history(entity, entity_id, id);
            """)
    }

    /// Demo data is generated in bulk by one command; a history row for each of its records would double the
    /// file and tell nobody anything.
    static let unrecordedAuthors: Set<String> = [Actor.system("demo-data").recorded]

    /// `origin` says whether the change was made here or pushed by a node (whose own notifier already told people);
    /// a deletion keeps the record's last values as its `subject`, for the notification rules to name whom it concerned.
    static func append(_ db: Database, _ change: Change, author: String, at moment: Date, origin: ChangeOrigin,
                       deleted: [String: JSONValue]) throws {
        guard !unrecordedAuthors.contains(author) else { return }
        let subject = change.operation == .delete && !deleted.isEmpty
            ? String(decoding: try JSONEncoder.sortedKeys.encode(deleted), as: UTF8.self) : ""
        try db.cachedStatement(sql: """
            INSERT INTO record_history (entity, entity_id, operation, author, changed_at, fields, origin, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [change.entity, change.entityId.databaseText, change.operation.rawValue, author, moment.storedText,
                                     change.operation == .update ? change.fields.keys.sorted().joined(separator: ",") : "",
                                     origin.rawValue, subject])
    }

    /// Adds what the notifier reads: each change's origin and a deleted record's last values.
    static func addOriginAndSubject(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE record_history ADD COLUMN origin TEXT NOT NULL DEFAULT 'local';
            ALTER TABLE record_history ADD COLUMN subject TEXT NOT NULL DEFAULT '';
            """)
    }
}

/// Where a recorded change was made: on this Fieldbook, or on a node that pushed it here.
enum ChangeOrigin: String {
    case local, pushed
}

/// One change of a record as its page lists it.
public struct RecordHistoryEntry: Sendable, Equatable {
    public let operation: ChangeOperation
    /// The person's name, "Fieldbook" for the system, or the author as recorded when the account is gone.
    public let authorName: String
    public let at: Date
    public let fields: [String]
}

extension AppDatabase {
    /// The record's changes, newest first (at most `limit`).
    public func history(of kind: RecordKind, id: UUID, limit: Int = 50) throws -> [RecordHistoryEntry] {
        let entity = kind.entity
        return try read { db in
            try Row.fetchAll(db, sql: """
                SELECT h.operation, h.author, h.changed_at, h.fields, u.name AS user_name FROM record_history h
                LEFT JOIN users u ON u.id = h.author WHERE h.entity = ? AND h.entity_id = ? ORDER BY h.id DESC LIMIT ?
                """, arguments: [entity, id.databaseText, limit]).map { row in
                let author: String = row["author"]
                let name = (row["user_name"] as String?) ?? (author.hasPrefix("system:") ? "Fieldbook (\(author.dropFirst(7)))" : "someone on another Fieldbook")
                let fields: String = row["fields"]
                return RecordHistoryEntry(operation: ChangeOperation(rawValue: row["operation"]) ?? .update, authorName: name,
                                          at: row.storedDate("changed_at"), fields: fields.isEmpty ? [] : fields.split(separator: ",").map(String.init))
            }
        }
    }
}
