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
        metaColumns: RecordKind.timestamps, label: ("area", "geographic areas"), listPath: "/areas",
        references: [Reference("parent_id", "geographic_area")], optional: ["parent_id"]
    ) { lookup, id, fields in
        let valid = try AreaInput(name: fields.text("name"), areaType: fields.text("area_type"), parentId: fields.text("parent_id")).validated()
        if let parent = valid.parentId, try isAncestor(id, of: parent, in: lookup) {
            throw ValidationError([FieldError(field: "parent_id", message: "An area cannot be inside itself or one of its own sub-areas")])
        }
    }

    /// True when `area` is `child` itself or one of the areas above it: the new parent would then sit inside the area.
    /// Walks up the stored parents, so any store answers it; a chain seen twice (which the check itself prevents)
    /// ends the walk.
    static func isAncestor(_ area: UUID, of child: UUID, in lookup: any RecordLookup) throws -> Bool {
        var next: UUID? = child
        var seen = Set<UUID>()
        while let current = next, seen.insert(current).inserted {
            if current == area { return true }
            next = try lookup.liveFields(of: kind, id: current).flatMap { UUID(uuidString: $0.text("parent_id")) }
        }
        return false
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
