import Credentials
import Domain
import Foundation
import GRDB

/// The one entry point to Fieldbook's SQLite database: a WAL pool, the migrations, and named write methods
/// that each record their change in the outbox inside the same transaction.
public final class AppDatabase: Sendable {
    let pool: DatabasePool
    let passwordHasher: PasswordHasher
    public let path: String
    /// What each committed write changed (the sync engine, live pages and, later, notifications subscribe).
    public let changeFeed = ChangeFeed()
    /// What the analytics reports count, kept in memory (AnalyticsSnapshot).
    let analytics = AnalyticsCache()
    /// What the map draws, kept in memory (MapModel).
    let mapModel = MapModel()
    /// Encoded answers the API keeps until the records change (the map's GeoJSON), bounded in bytes.
    public let answers = VersionedCache<AnyHashable, [UInt8]>(budget: 16 << 20)
    /// The areas in tree order (one entry), which list pages offer as a filter.
    let areaTrees = VersionedCache<Int, [AreaTreeEntry]>(budget: 1)
    /// Where deep pages of the record lists begin (`ListQuery.page`).
    let pageAnchors = PageAnchors()
    /// Writes sessions' upkeep one after another, off the threads that answer pages (`keepUpLater`).
    let sessionUpkeep = DispatchQueue(label: "fieldbook.session-upkeep")

    /// The most the writer connection's page cache may hold, in KiB (SQLite's default is 2,000).
    static let writerCacheKiB = 64 * 1024
    /// The most each reader connection's page cache may hold, in KiB: the pages lists and searches read again and again
    /// (a deep page of a list walks much of its sort index, which SQLite's default cache does not hold).
    static let readerCacheKiB = 8 * 1024

    /// Frees what SQLite's page caches hold (after a large sync or import, so an idle node does not keep it resident),
    /// and hands the freed heap back to the system: glibc keeps freed memory for reuse otherwise, so a large import
    /// would stay resident after it had ended.
    public func releaseMemory() {
        pool.releaseMemory()
        Self.trimHeap?(0)
    }

    /// glibc's `malloc_trim`, which Swift's Glibc module does not declare; nil on another C library.
    static let trimHeap: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// A folder beside the database file, in the data folder ("photos", "exports", "imports").
    func folderBeside(_ name: String) -> String {
        ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// Opens (creating if needed) the database file and brings its schema up to date.
    public init(path: String, passwordCost: PasswordHasher.Cost = .standard) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try RowIdSet.register(db)
            // FULL: a commit is on disk before the response leaves, so acknowledged writes survive a crash or power cut.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Reads copy pages into each connection's own bounded cache rather than mapping the file: a map is counted
            // in the server's resident memory once per connection that touched a page, and makes list pages no faster.
            try db.execute(sql: "PRAGMA mmap_size = 0")
            if db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(Self.readerCacheKiB)") }
            // The writer's page cache holds much of a pulled batch: a cache smaller than a transaction's dirty pages
            // spills them to the WAL before the commit, writing the same index pages again. `releaseMemory` gives it back.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)") }
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        passwordHasher = PasswordHasher(cost: passwordCost)
        self.path = path
        // Indexes a first sync dropped come back before any migration could look for them (DeferredIndexes).
        try pool.write { db in if try db.tableExists("settings") { try DeferredIndexes.restore(db) } }
        try Migrations.migrator.migrate(pool)
    }

    /// The single write path for synced data: runs `body` in one transaction in which every write records its change,
    /// then tells the change feed what was committed. Writes that belong together (an import) share one call.
    /// `statementJournalsInMemory` is for bulk writes (`write(statementJournalsInMemory:_:)`).
    public func transaction<T>(by actor: Actor, statementJournalsInMemory: Bool = false,
                               _ body: (RecordTransaction) throws -> T) throws -> T {
        var recorder: ChangeRecorder?
        SharedRead.current(for: pool)?.noteWrite("a record transaction")
        let result = try write(statementJournalsInMemory: statementJournalsInMemory) { db in
            let changes = ChangeRecorder(db: db, author: actor.recorded, queuesForHub: try Self.isLinked(db))
            recorder = changes
            return try body(RecordTransaction(db: db, changes: changes))
        }
        if let recorder {
            changeFeed.publish(CommittedChanges(origin: .local, changes: recorder.committed, queuedForHub: recorder.queuesForHub))
        }
        return result
    }

    /// One write transaction. A write whose triggers touch many pages (change log, search index, counts) keeps a
    /// statement journal, which in a temporary file is written again, page by page, for every row of a large
    /// transaction; `statementJournalsInMemory` keeps this transaction's temporary storage in memory instead. The writer
    /// otherwise keeps SQLite's default, files: with temporary storage in memory SQLite's sorter never spills, so an
    /// index build or search-index rebuild over a large table (`DeferredIndexes.restore`) would sort all of it in
    /// the heap. The setting can change only outside a transaction, and changing it drops the connection's temporary
    /// tables (staged pulled rows, which are created again when next needed).
    private func write<T>(statementJournalsInMemory: Bool, _ body: (Database) throws -> T) throws -> T {
        guard statementJournalsInMemory else { return try pool.write(body) }
        return try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            let result = Result {
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                return value!
            }
            try db.execute(sql: "PRAGMA temp_store = DEFAULT")
            return try result.get()
        }
    }

    /// Writes node-local state (sessions, settings) that never syncs.
    func writeLocal<T>(_ body: (Database) throws -> T) throws -> T {
        SharedRead.current(for: pool)?.noteWrite("a write of node-local state")
        return try pool.write(body)
    }

    /// A read: its own transaction, or the one `readingTogether` keeps open on this thread.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard let shared = SharedRead.current(for: pool) else { return try pool.read(body) }
        shared.checkNoWriteBeforeRead()
        return try body(shared.db)
    }

    /// Runs `body` with every read it makes of this database on this thread in one read transaction (`SharedRead`):
    /// for requests that only read, such as a page. Writes still work, but reads after them in `body` would not see
    /// them, so a request that writes and then reads must not use this (debug builds stop at such a read).
    public func readingTogether<T>(_ body: () throws -> T) throws -> T {
        if SharedRead.current(for: pool) != nil { return try body() }
        return try pool.read { db in try SharedRead.sharing(db, of: pool, body) }
    }

    /// True when the database answers a query.
    public func isHealthy() -> Bool {
        (try? read { try Int.fetchOne($0, sql: "SELECT 1") }) == 1
    }

    /// Writes an online, consistent copy of the database to `destination` (replaced if it exists).
    public func backup(to destination: String) throws {
        let temporary = destination + ".partial"
        try? FileManager.default.removeItem(atPath: temporary)
        do { try Self.copySelfContained(pool, to: temporary) } catch {
            unlink(temporary)
            throw error
        }
        if FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.removeItem(atPath: destination)
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: destination)
    }

    /// Copies `source` to a new database file at `path` for its owner alone, as one self-contained file which opens
    /// without leaving -wal and -shm files beside it (the copy takes the source's WAL mode with its pages).
    static func copySelfContained(_ source: some DatabaseReader, to path: String) throws {
        let copy = try newOwnerOnlyDatabase(at: path)
        try source.backup(to: copy)
        try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try copy.close()
    }

    /// A new database file that only this user can read, as a backup copy holds everyone's records: it is made 600
    /// before SQLite opens it (its journal takes the same mode), so no one else can read it while the copy is written.
    static func newOwnerOnlyDatabase(at path: String) throws -> DatabaseQueue {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        _ = Glibc.close(descriptor)
        return try DatabaseQueue(path: path)
    }

    /// Checkpoints the WAL and closes every connection (on shutdown). The last connection to close removes the -wal
    /// and -shm files when no other process has the database open, but a read-only one cannot, and GRDB closes the
    /// writer before the readers: so the readers are closed first, and a command leaves the data folder as it was.
    public func close() throws {
        sessionUpkeep.sync {}
        try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        pool.releaseMemory()
        try pool.close()
    }
}

/// Appends outbox entries for the changes of the transaction it was made for, and keeps them for the change feed.
/// With no hub linked there is nobody to push to, so nothing is queued (the change log, kept by triggers, still
/// records every change for pulling nodes).
final class ChangeRecorder {
    let db: Database
    let author: String
    let queuesForHub: Bool
    let origin: ChangeOrigin
    /// What this transaction changed, in order, published once it commits.
    private(set) var committed: [RecordChange] = []

    init(db: Database, author: String, queuesForHub: Bool, origin: ChangeOrigin = .local) {
        self.db = db
        self.author = author
        self.queuesForHub = queuesForHub
        self.origin = origin
    }

    /// `before` is the record's values before the change: an edit's (to send with it) or a deleted record's.
    /// `operationId`: the hub's, for a change it applies; otherwise a new one, made only when the change is queued.
    func record(_ change: Change, before: [String: JSONValue] = [:], operationId: UUID? = nil) throws {
        let now = Date()
        committed.append(RecordChange(kind: change.entity, id: change.entityId, operation: change.operation, author: author, at: now))
        try RecordHistory.append(db, change, author: author, at: now, origin: origin, deleted: change.operation == .delete ? before : [:])
        guard queuesForHub else { return }
        let fields = try JSONEncoder.sortedKeys.encode(change.fields)
        let beforeFields = try JSONEncoder.sortedKeys.encode(before.filter { change.fields[$0.key] != nil })
        try db.cachedStatement(sql: """
            INSERT INTO outbox (operation_id, operation, entity, entity_id, fields, before_fields, base_version, author, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [(operationId ?? UUID()).databaseText, change.operation.rawValue, change.entity, change.entityId.databaseText,
                                     String(decoding: fields, as: UTF8.self), String(decoding: beforeFields, as: UTF8.self),
                                     change.baseVersion, author, now.storedText])
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

    /// `before` is the deleted record's values (kept in its history for the notification rules; never sent).
    func recordDelete(_ entity: String, id: UUID, baseVersion: Int, before: [String: JSONValue] = [:]) throws {
        try record(Change(operation: .delete, entity: entity, entityId: id, fields: [:], baseVersion: baseVersion), before: before)
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
        Self.id(self[column])
    }

    /// Reads the text id in the column at `index` as a UUID.
    func uuid(at index: Int) -> UUID {
        Self.id(self[index])
    }

    /// The id a text stands for; the nil UUID for text that is not one.
    private static func id(_ text: String) -> UUID {
        UUID(canonicalText: text) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
}
