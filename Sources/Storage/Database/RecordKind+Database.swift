import Domain
import Foundation
import GRDB
import Records

extension RecordKind {
    /// The `search_text` of a row with these values, or nil for kinds without one.
    func searchText(_ values: [String: DatabaseValue]) -> String? {
        searchText(searched: searchColumns.map { values[$0] })
    }

    /// The `search_text` of a row whose `searchColumns` hold these values, in order (nil: a column the row lacks).
    func searchText(searched values: [DatabaseValue?]) -> String? {
        guard !searchColumns.isEmpty else { return nil }
        return SearchText.of(values.map { $0.flatMap(String.fromDatabaseValue) ?? "" })
    }

    /// Why a new record with an id already stored is refused, in the kind's words.
    func idTaken(_ id: UUID) -> String {
        "Another \(label.one) already has the id \(id.databaseText), so nothing was saved; make the new \(label.one) with a new id"
    }

    /// The values a change of a row carries: its synced columns as they are stored.
    func syncedFields(_ values: [String: DatabaseValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0, JSONValue(values[$0] ?? .null)) })
    }
}

extension Database: RecordLookup {
    public func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]? {
        let state = try RecordStates.read(self, kind, id: id)
        return state.deleted ? nil : state.fields
    }
}

extension RecordDeclaration {
    /// The record a stored row holds.
    func record(_ row: Row) -> Record {
        record(id: row.uuid("id"), version: row["version"]) { column in
            let stored = row[column] as DatabaseValue? ?? .null
            return instantColumns.contains(column) ? JSONValue(instant: stored) : JSONValue(stored)
        }
    }

    /// Writes the record's id, version and fields as its row stores them.
    func encode(_ record: Record, id: UUID, version: Int, to container: inout PersistenceContainer) {
        for (column, value) in row(of: record, id: id, version: version) { container[column] = value }
    }

    /// The record's id, version and fields as its row stores them. Built straight from the fields rather than through
    /// GRDB's `PersistenceContainer` (`databaseDictionary`), which boxes every value and copies the row once more: every
    /// write builds this row.
    func row(of record: Record, id: UUID, version: Int) -> [String: DatabaseValue] {
        var row = [String: DatabaseValue](minimumCapacity: fields.count + 2)
        row["id"] = id.databaseText.databaseValue
        for field in fields { row[field.column] = field.value(of: record).databaseValue }
        row["version"] = version.databaseValue
        return row
    }

    /// The ids the record's reference fields hold, each with its field; the other fields are not read.
    func referencedIds(of record: Record) -> [(field: FieldDeclaration, id: UUID)] {
        referenceFields.compactMap { field in UUID.strict(field.value(of: record).text).map { (field.declaration, $0) } }
    }
}
