import Domain
import Foundation
import GRDB
import Records
import Synchronization
import Translations

/// A record of a synced kind as GRDB encodes it. Its synced fields, its row and its change come from one encoding, so
/// no column is listed twice.
protocol SyncedRecord: EncodableRecord {
    /// What kind of record this is (one type can serve several kinds: activity types and roles are both categories).
    var recordKind: RecordKind { get }
    var id: UUID { get }
    var version: Int { get set }
    /// Stamps the time of an edit, for kinds that keep one.
    mutating func stamp(editedAt date: Date)
    /// The record's row as stored, from its declaration (`RecordDeclaration.row`).
    func storedRow() -> [String: DatabaseValue]
    /// The ids the record's references name, each with its field (`RecordDeclaration.referencedIds`).
    func referencedIds() -> [(field: FieldDeclaration, id: UUID)]
}

extension SyncedRecord {
    mutating func stamp(editedAt date: Date) {}

    /// The values a change of this record carries: its synced columns as they are stored.
    func syncedFields() -> [String: JSONValue] {
        recordKind.syncedFields(storedRow())
    }
}

/// A record type that stores exactly one kind in its own table, its row read and written from the kind's declaration.
public protocol DeclaredRecord: FetchableRecord, EncodableRecord, TableRecord {
    static var kind: RecordKind { get }
    static var declaration: RecordDeclaration<Self> { get }
    var id: UUID { get }
    var version: Int { get }
}

extension DeclaredRecord {
    public static var databaseTableName: String { kind.table }

    public init(row: Row) { self = Self.declaration.record(row) }

    public func encode(to container: inout PersistenceContainer) {
        Self.declaration.encode(self, id: id, version: version, to: &container)
    }
}

/// A synced record type that stores exactly one kind in its own table (every kind but the two categories and the two
/// periods), found by id.
protocol StoredRecord: SyncedRecord, DeclaredRecord {}

extension StoredRecord {
    var recordKind: RecordKind { Self.kind }

    func storedRow() -> [String: DatabaseValue] { Self.declaration.row(of: self, id: id, version: version) }

    func referencedIds() -> [(field: FieldDeclaration, id: UUID)] { Self.declaration.referencedIds(of: self) }
}

extension DeclaredRecord {
    /// The stored record with this id; `notFound` names the kind as people call it ("This area does not exist").
    static func find(_ db: Database, id: UUID) throws -> Self {
        guard let record = try fetchOne(db, key: id.databaseText) else { throw DomainError.notFound(entity: kind.label.one) }
        return record
    }
}

/// The only code that writes rows of synced tables, for typed records (pages, API, demo data) and wire states (sync)
/// alike. It derives `search_text` from the kind, so a row written either way is found by the same search.
enum RowWriter {
    /// Inserts the row, or replaces the stored row with the same id: for sync, which makes a record equal its state.
    static func put(_ db: Database, _ kind: RecordKind, _ values: [String: DatabaseValue]) throws {
        try write(db, kind, values, replacing: true)
    }

    /// Inserts the row of a new record. An id already stored is refused, never replaced: ids also come from outside
    /// (a phone's page, an API body, an import), and a create must not silently overwrite another record.
    static func add(_ db: Database, _ kind: RecordKind, _ values: [String: DatabaseValue]) throws {
        do {
            try write(db, kind, values, replacing: false)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            // Only the record's own id is this clash; a key a trigger writes is the server's fault, told as it is.
            guard let id = values["id"].flatMap(String.fromDatabaseValue).flatMap(UUID.init(uuidString:)),
                  try db.recordExists(id, in: kind.table) else { throw error }
            throw ValidationError.clash("id", kind.idTaken(id))
        }
    }

    private static func write(_ db: Database, _ kind: RecordKind, _ values: [String: DatabaseValue], replacing: Bool) throws {
        var values = values
        if let search = kind.searchText(values) { values["search_text"] = search.databaseValue }
        let insert = insertStatement(kind, values, replacing: replacing)
        // Cached: bulk writes (a pull, demo data) repeat the same columns, so the statement compiles once per shape.
        try db.cachedStatement(sql: insert.sql).execute(arguments: StatementArguments(insert.columns.map { values[$0]! }))
    }

    /// The last insert made for each table and way (replacing or not). Every write of a typed record has the same
    /// columns, and making the text (the columns sorted and listed up to three times) costs more than SQLite's insert.
    private static let inserts = Mutex<[String: (columns: [String], sql: String)]>([:])

    /// The insert of a row with these columns into `kind`'s table, and its columns in the order it binds them.
    private static func insertStatement(_ kind: RecordKind, _ values: [String: DatabaseValue], replacing: Bool) -> (columns: [String], sql: String) {
        let key = replacing ? kind.table : "+" + kind.table
        if let known = inserts.withLock({ $0[key] }), known.columns.count == values.count,
           known.columns.allSatisfy({ values[$0] != nil }) { return known }
        let columns = values.keys.sorted()
        let onConflict = replacing
            ? "ON CONFLICT(id) DO UPDATE SET " + columns.filter { $0 != "id" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            : ""
        let made = (columns: columns, sql: """
            INSERT INTO \(kind.table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
            \(onConflict)
            """)
        inserts.withLock { $0[key] = made }
        return made
    }

    static func delete(_ db: Database, _ kind: RecordKind, id: UUID) throws {
        try db.cachedStatement(sql: "DELETE FROM \(kind.table) WHERE id = ?").execute(arguments: [id.databaseText])
    }

    /// Inserts or replaces many rows of one kind (a pulled batch), each row as `put` would. The rows are staged in a
    /// temporary table and written with one statement: a statement per row runs the kind's triggers (change log,
    /// search index, counts) under a statement journal of its own, which copies the pages it touches again for every
    /// row. Rows with the same id: the last one wins.
    static func putAll(_ db: Database, _ kind: RecordKind, _ rows: [StagedRow]) throws {
        var start = rows.startIndex
        while start < rows.endIndex {
            // Rows of one shape share a statement; rows from one hub all have the same columns (and the same array).
            let columns = rows[start].columns
            let end = rows[start...].firstIndex { $0.columns != columns } ?? rows.endIndex
            try putShaped(db, kind, columns, rows[start..<end])
            start = end
        }
    }

    /// Rows of several kinds, by entity: kinds that others refer to first (`RecordKind.all`), each kind as `putAll`.
    static func putAll(_ db: Database, byKind rows: [String: [StagedRow]]) throws {
        for kind in RecordKind.all { if let staged = rows[kind.entity] { try putAll(db, kind, staged) } }
    }

    /// Rows staged by one statement: few enough that the widest synced table's stay far below SQLite's limit on bound
    /// values.
    private static let stagedAtOnce = 64

    private static func putShaped(_ db: Database, _ kind: RecordKind, _ columns: [String], _ rows: ArraySlice<StagedRow>) throws {
        let searched = kind.searchColumns.isEmpty ? nil : kind.searchColumns.map { columns.firstIndex(of: $0) }
        let stored = searched == nil ? columns : columns + ["search_text"]
        let staging = try stagingTable(db, kind)
        // Emptied first as well as after: rows a failed statement left behind must never be written with this batch.
        try db.cachedStatement(sql: "DELETE FROM temp.\(staging)").execute()
        let list = stored.joined(separator: ", ")
        // Many rows a statement: with one row a statement, GRDB's binding of it (its arguments made, bound, stepped,
        // reset) costs more than SQLite's insert.
        func stagingStatement(rows count: Int) throws -> Statement {
            let row = "(" + stored.map { _ in "?" }.joined(separator: ", ") + ")"
            return try db.cachedStatement(sql: """
                INSERT INTO temp.\(staging) (\(list)) VALUES \(repeatElement(row, count: count).joined(separator: ", "))
                """)
        }
        let stageMany = try stagingStatement(rows: stagedAtOnce)
        var pending: [DatabaseValue] = []
        pending.reserveCapacity(stagedAtOnce * stored.count)
        var pendingRows = 0
        for row in rows {
            pending += row.values
            if let searched {
                let search = kind.searchText(searched: searched.map { $0.map { row.values[$0] } })
                pending.append(search?.databaseValue ?? .null)
            }
            pendingRows += 1
            if pendingRows == stagedAtOnce {
                try stageMany.execute(arguments: StatementArguments(pending))
                pending.removeAll(keepingCapacity: true)
                pendingRows = 0
            }
        }
        if pendingRows > 0 {
            // The rest one row a statement: a statement for each count left would crowd GRDB's statement cache.
            let stageOne = try stagingStatement(rows: 1)
            for start in stride(from: 0, to: pending.count, by: stored.count) {
                try stageOne.execute(arguments: StatementArguments(pending[start..<start + stored.count]))
            }
        }
        let updates = stored.filter { $0 != "id" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        // `WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
        try db.cachedStatement(sql: """
            INSERT INTO main.\(kind.table) (\(list)) SELECT \(list) FROM temp.\(staging) WHERE true ORDER BY rowid
            ON CONFLICT(id) DO UPDATE SET \(updates)
            """).execute()
        try db.cachedStatement(sql: "DELETE FROM temp.\(staging)").execute()
    }

    /// An empty temporary table with the kind's columns, on this connection (temporary tables are the connection's own
    /// and go with it).
    private static func stagingTable(_ db: Database, _ kind: RecordKind) throws -> String {
        let name = "staged_" + kind.table
        // Asked first: a CREATE statement, even one that finds the table there, would make GRDB forget its cached statements.
        let exists = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE name = ?)"),
                                       arguments: [name]) ?? false
        if !exists {
            try db.execute(sql: "CREATE TEMP TABLE \(name) AS SELECT * FROM main.\(kind.table) WHERE 0")
        }
        return name
    }
}

/// A row for `RowWriter.putAll`: its values in the order of `columns` (without `search_text`, which the writer derives).
struct StagedRow {
    let columns: [String]
    let values: [DatabaseValue]
}

/// Several writes that belong together: one SQLite transaction in which every write records its change (in the outbox
/// while a hub is linked, and on the change feed once committed). Made by `AppDatabase.transaction(by:)`.
public struct RecordTransaction {
    let db: Database
    let changes: ChangeRecorder

    /// Adds a new record; an id already stored is refused (`RowWriter.add`), with nothing written or queued.
    func insert(_ record: some SyncedRecord) throws {
        let kind = record.recordKind
        // Encoded once: the row and its change are the same values.
        let values = record.storedRow()
        try RowWriter.add(db, kind, values)
        // Standalone, nothing is queued, so the operation's fields are not worth building.
        try changes.recordCreate(kind.entity, id: record.id, fields: changes.queuesForHub ? kind.syncedFields(values) : [:])
    }

    /// Saves `edited` over `stored` when a synced field differs: version raised, edit time stamped, change recorded.
    /// Returns the record as it is now stored.
    @discardableResult
    func save<Record: SyncedRecord>(_ edited: Record, over stored: Record) throws -> Record {
        let before = stored.syncedFields()
        let after = edited.syncedFields()
        guard after != before else { return stored }
        var saved = edited
        saved.version = stored.version + 1
        saved.stamp(editedAt: Date())
        try RowWriter.put(db, saved.recordKind, saved.storedRow())
        try changes.recordUpdate(saved.recordKind.entity, id: saved.id, before: before, after: after, baseVersion: stored.version)
        return saved
    }

    func delete(_ record: some SyncedRecord) throws {
        try RowWriter.delete(db, record.recordKind, id: record.id)
        try changes.recordDelete(record.recordKind.entity, id: record.id, baseVersion: record.version, before: record.syncedFields())
    }

    /// The stored record with this id (`StoredRecord.find`).
    func fetch<Record: StoredRecord>(_ type: Record.Type, id: UUID) throws -> Record {
        try Record.find(db, id: id)
    }

    /// Refuses an edit made on a version of `stored` that is no longer current (the form or body named `expected`).
    func ensureCurrent(_ stored: some SyncedRecord, expected: Int?) throws {
        if let expected, expected != stored.version { throw DomainError.staleVersion(entity: stored.recordKind.label.one) }
    }

    /// True when `table` holds a row with this id.
    func exists(_ id: UUID, in table: String) throws -> Bool { try db.recordExists(id, in: table) }

    /// Refuses a value naming a record that no longer exists in `table`, as a clash at `field`.
    func ensureExists(_ id: UUID, in table: String, field: String, _ message: Message) throws {
        if try !exists(id, in: table) { throw ValidationError.clash(field, message) }
    }
}

extension Database {
    /// Whether `table` has a row with this id.
    func recordExists(_ id: UUID, in table: String) throws -> Bool {
        // Cached: every write checks each reference, and compiling the statement each time would cost more than the
        // check. Its text is made once per table, as building it costs as much as the lookup it keys.
        let sql = Self.existenceQueries[table] ?? Self.existenceQuery(table)
        return try Bool.fetchOne(cachedStatement(sql: sql), arguments: [id.databaseText]) ?? false
    }

    private static let existenceQueries = Dictionary(RecordKind.all.map { ($0.table, existenceQuery($0.table)) }) { first, _ in first }

    private static func existenceQuery(_ table: String) -> String { "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ?)" }
}
