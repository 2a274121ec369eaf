import Domain
import Foundation
import GRDB

/// Geographic areas as GRDB reads and encodes them; written through `RecordTransaction`.
extension GeographicArea: StoredRecord {
    public enum Columns {
        public static let name = Column("name"), areaType = Column("area_type"), parentId = Column("parent_id")
    }

    public static let databaseTableName = "geographic_areas"

    static let kind = RecordKind(
        entity: "geographic_area", table: databaseTableName, columns: ["name", "area_type", "parent_id"],
        metaColumns: RecordKind.timestamps, label: ("area", "geographic areas"), listPath: "/areas"
    ) { db, id, fields in
        let valid = try AreaInput(name: fields.text("name"), areaType: fields.text("area_type"), parentId: fields.text("parent_id")).validated()
        if let parent = valid.parentId, try parent == id || AppDatabase.descendantIds(db, of: id).contains(parent) {
            throw ValidationError([FieldError(field: "parent_id", message: "An area cannot be inside itself or one of its own sub-areas")])
        }
    }

    public init(row: Row) {
        let parent: String? = row[Columns.parentId]
        self.init(id: row.uuid("id"), name: row[Columns.name], areaType: AreaType(rawValue: row[Columns.areaType]) ?? .community,
                  parentId: parent.flatMap(UUID.init(uuidString:)), version: row["version"],
                  createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container[Columns.name] = name
        container[Columns.areaType] = areaType.rawValue
        container[Columns.parentId] = parentId?.databaseText
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
