import Domain
import Foundation
import GRDB

/// Activity types and participant roles: one record type, two kinds (one table each). GRDB's table name is per type,
/// so categories are read with `init(row:kind:)` rather than FetchableRecord.
extension Category: EncodableRecord, SyncedRecord {
    private static let kinds: [CategoryKind: RecordKind] = Dictionary(uniqueKeysWithValues: CategoryKind.allCases.map { category in
        (category, RecordKind(entity: category.rawValue, table: category.table, columns: ["name"],
                              metaColumns: ["is_predefined"] + RecordKind.timestamps, label: (category.singular, category.plural),
                              listPath: category == .activityType ? "/activity-types" : "/roles",
                              uniqueKeys: [["name"]]) { _, _, fields in
            _ = try CategoryInput(name: fields.text("name")).validated(kind: category)
        })
    })

    static func kind(_ category: CategoryKind) -> RecordKind { kinds[category]! }

    var recordKind: RecordKind { Self.kind(self.kind) }

    init(row: Row, kind: CategoryKind) {
        self.init(id: row.uuid("id"), kind: kind, name: row["name"], isPredefined: row["is_predefined"],
                  version: row["version"], createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["name"] = name
        container["is_predefined"] = isPredefined
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
