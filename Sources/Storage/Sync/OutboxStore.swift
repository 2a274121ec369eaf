import Domain
import Foundation
import GRDB

/// One recorded change waiting to be pushed upstream (or set aside as failed).
public struct OutboxEntry: Sendable, Equatable {
    public let seq: Int64
    public let operationId: UUID
    public let change: Change
    public let before: [String: JSONValue]
    public let author: String
    public let createdAt: Date
    public let state: String
    public let attempts: Int
    public let lastError: String?

    /// The operation as pushed to the hub.
    public var syncOperation: SyncOperation {
        SyncOperation(operationId: operationId, operation: change.operation, entity: change.entity, entityId: change.entityId,
                      fields: change.fields, before: before, baseVersion: change.baseVersion, author: author, createdAt: createdAt)
    }
}

/// Reading the outbox: the queue the sync engine pushes first-in first-out.
extension AppDatabase {
    /// Entries in the order they were recorded.
    public func outboxEntries(limit: Int = 1000, after seq: Int64 = 0) throws -> [OutboxEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?", arguments: [seq, limit])
                .map(OutboxEntry.init(row:))
        }
    }

    /// The oldest pending entries after `seq`, the next to push.
    public func pendingOperations(limit: Int, after seq: Int64 = 0) throws -> [OutboxEntry] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM outbox WHERE state = 'pending' AND seq > ? ORDER BY seq LIMIT ?"),
                             arguments: [seq, limit])
                .map(OutboxEntry.init(row:))
        }
    }

    /// Entries set aside after a rejection or too many failed attempts, oldest first.
    public func failedOperations(limit: Int = 200) throws -> [OutboxEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE state = 'failed' ORDER BY seq LIMIT ?", arguments: [limit])
                .map(OutboxEntry.init(row:))
        }
    }

    public func pendingOperationCount() throws -> Int {
        try read { try Int.fetchOne($0.cachedStatement(sql: "SELECT count FROM outbox_counts WHERE state = 'pending'")) ?? 0 }
    }

    public func failedOperationCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT count FROM outbox_counts WHERE state = 'failed'") ?? 0 }
    }
}

extension OutboxEntry {
    init(row: Row) {
        // Written by JSONEncoder as one object of scalars (`ChangeRecorder.record`), read without JSONDecoder, whose generic path is slow.
        let fields = (try? SyncWireReader.fields(row["fields"])) ?? [:]
        let before = (try? SyncWireReader.fields(row["before_fields"])) ?? [:]
        self.init(seq: row["seq"], operationId: row.uuid("operation_id"),
                  change: Change(operation: ChangeOperation(rawValue: row["operation"]) ?? .update, entity: row["entity"],
                                 entityId: row.uuid("entity_id"), fields: fields, baseVersion: row["base_version"]),
                  before: before, author: row["author"], createdAt: row.storedDate("created_at"), state: row["state"],
                  attempts: row["attempts"], lastError: row["last_error"])
    }
}
