import Domain
import Foundation
import GRDB

/// The one entry point to Fieldbook's SQLite database: a WAL pool, the migrations, and named write methods
/// that each record their change in the outbox inside the same transaction.
public final class AppDatabase: Sendable {
    let pool: DatabasePool
    let passwordHasher: PasswordHasher
    public let path: String
    /// Fires after each committed write that queued operations for the hub (the sync engine wakes on it).
    public let queuedWrites = WriteSignal()

    /// Opens (creating if needed) the database file and brings its schema up to date.
    public init(path: String, passwordCost: PasswordHasher.Cost = .standard) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // FULL: a commit is on disk before the response leaves, so acknowledged writes survive a crash or power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        passwordHasher = PasswordHasher(cost: passwordCost)
        self.path = path
        try Migrations.migrator.migrate(pool)
    }

    /// The single write path for synced data: runs `body` in one transaction with a recorder for its changes.
    func write<T>(by actor: Actor, _ body: (Database, ChangeRecorder) throws -> T) throws -> T {
        var queued = false
        let result = try pool.write { db in
            queued = try Self.isLinked(db)
            return try body(db, ChangeRecorder(db: db, author: actor.recorded, queuesForHub: queued))
        }
        if queued { queuedWrites.notify() }
        return result
    }

    /// Writes node-local state (sessions, settings) that never syncs.
    func writeLocal<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.write(body)
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// True when the database answers a query.
    public func isHealthy() -> Bool {
        (try? pool.read { try Int.fetchOne($0, sql: "SELECT 1") }) == 1
    }

    /// Writes an online, consistent copy of the database to `destination` (replaced if it exists).
    public func backup(to destination: String) throws {
        let temporary = destination + ".partial"
        try? FileManager.default.removeItem(atPath: temporary)
        let copy = try DatabaseQueue(path: temporary)
        try pool.backup(to: copy)
        try copy.close()
        if FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.removeItem(atPath: destination)
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: destination)
    }

    /// Checkpoints the WAL and closes every connection (on shutdown).
    public func close() throws {
        try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try pool.close()
    }
}

/// Appends outbox entries for the changes of the transaction it was made for. With no hub linked there is nobody
/// to push to, so nothing is queued (the change log, kept by triggers, still records every change for pulling nodes).
struct ChangeRecorder {
    let db: Database
    let author: String
    let queuesForHub: Bool

    func record(_ change: Change, before: [String: JSONValue] = [:], operationId: UUID = UUID()) throws {
        guard queuesForHub else { return }
        let fields = try JSONEncoder.sortedKeys.encode(change.fields)
        let beforeFields = try JSONEncoder.sortedKeys.encode(before.filter { change.fields[$0.key] != nil })
        try db.cachedStatement(sql: """
            INSERT INTO outbox (operation_id, operation, entity, entity_id, fields, before_fields, base_version, author, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [operationId.databaseText, change.operation.rawValue, change.entity, change.entityId.databaseText,
                                     String(decoding: fields, as: UTF8.self), String(decoding: beforeFields, as: UTF8.self),
                                     change.baseVersion, author, Date()])
    }

    /// Records a create with the synced columns as they were stored, so no column can be left out of the operation.
    func recordStoredCreate(_ entity: String, id: UUID) throws {
        guard queuesForHub, let table = SyncedTable.named(entity) else { return }
        let stored = try RecordStates.read(db, table, id: id)
        try recordCreate(entity, id: id, fields: stored.fields.filter { table.columns.contains($0.key) })
    }

    /// Records a new record with all its fields.
    func recordCreate(_ entity: String, id: UUID, fields: [String: JSONValue]) throws {
        try record(Change(operation: .create, entity: entity, entityId: id, fields: fields, baseVersion: 0))
    }

    /// Records only the fields that differ between `before` and `after`; returns false (recording nothing) when none do.
    @discardableResult
    func recordUpdate(_ entity: String, id: UUID, before: [String: JSONValue], after: [String: JSONValue],
                      baseVersion: Int) throws -> Bool {
        let changed = after.filter { before[$0.key] != $0.value }
        guard !changed.isEmpty else { return false }
        try record(Change(operation: .update, entity: entity, entityId: id, fields: changed, baseVersion: baseVersion), before: before)
        return true
    }

    func recordDelete(_ entity: String, id: UUID, baseVersion: Int) throws {
        try record(Change(operation: .delete, entity: entity, entityId: id, fields: [:], baseVersion: baseVersion))
    }
}

extension JSONEncoder {
    static let sortedKeys: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}

extension Row {
    /// Reads a text id column as a UUID.
    func uuid(_ column: String) -> UUID {
        UUID(uuidString: self[column] as String) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
}

/// A thread-safe list of callbacks run after an event.
public final class WriteSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [@Sendable () -> Void] = []

    public init() {}

    public func observe(_ observer: @escaping @Sendable () -> Void) { lock.withLock { observers.append(observer) } }

    func notify() {
        for observer in lock.withLock({ observers }) { observer() }
    }
}
