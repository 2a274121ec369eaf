import Domain
import Foundation
import Records
import GRDB

/// Reading and writing whole records in their wire form, for both sides of sync.
enum RecordStates {
    static func read(_ db: Database, _ table: RecordKind, id: UUID) throws -> RecordState {
        // Cached: a push reads one record per operation, and preparing the statement each time cost more than the read.
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(table.table) WHERE id = ?"), arguments: [id.databaseText]) else {
            return .absent(table.entity, id)
        }
        return state(of: row, table)
    }

    /// The states of many records of one table, read in one query.
    static func read(_ db: Database, _ table: RecordKind, ids: [UUID]) throws -> [UUID: RecordState] {
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM \(table.table) WHERE id IN (\(IdentifierList.values))"),
                                    arguments: [IdentifierList.json(ids.map(\.databaseText))])
        return Dictionary(rows.map { (row: Row) in (row.uuid("id"), state(of: row, table)) }) { first, _ in first }
    }

    private static func state(of row: Row, _ table: RecordKind) -> RecordState {
        var fields: [String: JSONValue] = [:]
        for column in table.columns + table.metaColumns {
            fields[column] = JSONValue(row[column] as DatabaseValue? ?? .null)
        }
        return RecordState(entity: table.entity, entityId: row.uuid("id"), deleted: false, version: row["version"], fields: fields)
    }

    /// Makes the stored record equal `state` (inserting, replacing or deleting it).
    static func write(_ db: Database, _ table: RecordKind, _ state: RecordState) throws {
        if state.deleted { return try RowWriter.delete(db, table, id: state.entityId) }
        let row = stagedRow(table, state)
        try RowWriter.put(db, table, Dictionary(zip(row.columns, row.values)) { _, later in later })
    }

    /// The stored row of a record that is not deleted, for `RowWriter.putAll`. A state with every column shares the
    /// kind's column list, so a batch's rows are told to be of one shape without comparing names.
    static func stagedRow(_ table: RecordKind, _ state: RecordState) -> StagedRow {
        var values: [DatabaseValue] = [state.entityId.databaseText.databaseValue, state.version.databaseValue]
        values.reserveCapacity(table.storedColumns.count)
        var missing = false
        for column in table.storedColumns.dropFirst(2) {
            if let value = state.fields[column] { values.append(value.databaseValue) } else { missing = true }
        }
        guard missing else { return StagedRow(columns: table.storedColumns, values: values) }
        let present = table.storedColumns.filter { $0 == "id" || $0 == "version" || state.fields[$0] != nil }
        return StagedRow(columns: present, values: values)
    }

    /// Sets `changes` on an existing record as an edit: checked like the page's form, version raised, updated_at
    /// stamped, written. Returns the record as stored.
    static func writeEdit(_ db: Database, _ table: RecordKind, _ state: RecordState, _ changes: [String: JSONValue]) throws -> RecordState {
        let edited = state.edited(changes, table)
        try table.check(db, state.entityId, edited.fields)
        try write(db, table, edited)
        return edited
    }

    /// True when the record was ever written here (a deleted record leaves its change-log entry behind).
    static func wasEverWritten(_ db: Database, _ table: RecordKind, id: UUID) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM change_log WHERE entity = ? AND entity_id = ?)"),
                          arguments: [table.entity, id.databaseText]) ?? false
    }
}
