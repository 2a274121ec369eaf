import Domain
import Foundation
import GRDB

/// One recorded change waiting to be pushed upstream.
public struct OutboxEntry: Sendable, Equatable {
    public let seq: Int64
    public let operationId: UUID
    public let change: Change
    public let author: String
    public let createdAt: Date
    public let state: String
}

/// Reading the outbox (the sync engine will consume it).
extension AppDatabase {
    /// Entries in the order they were recorded.
    public func outboxEntries(limit: Int = 1000, after seq: Int64 = 0) throws -> [OutboxEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq, limit])
                .map(OutboxEntry.init(row:))
        }
    }

    public func pendingOperationCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT count FROM outbox_counts WHERE state = 'pending'") ?? 0 }
    }
}

extension OutboxEntry {
    init(row: Row) {
        let fieldsText: String = row["fields"]
        let fields = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(fieldsText.utf8))) ?? [:]
        self.init(seq: row["seq"], operationId: row.uuid("operation_id"),
                  change: Change(operation: ChangeOperation(rawValue: row["operation"]) ?? .update, entity: row["entity"],
                                 entityId: row.uuid("entity_id"), fields: fields, baseVersion: row["base_version"]),
                  author: row["author"], createdAt: row["created_at"], state: row["state"])
    }
}
