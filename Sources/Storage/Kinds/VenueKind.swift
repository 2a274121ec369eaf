import Domain
import Foundation
import GRDB

/// Venues as GRDB reads and encodes them; written through `RecordTransaction`.
extension Venue: StoredRecord {
    public enum Columns {
        public static let name = Column("name"), address = Column("address"), areaId = Column("geographic_area_id")
        public static let latitude = Column("latitude"), longitude = Column("longitude"), venueType = Column("venue_type")
    }

    public static let databaseTableName = "venues"

    static let kind = RecordKind(
        entity: "venue", table: databaseTableName,
        columns: ["name", "address", "geographic_area_id", "latitude", "longitude", "venue_type"], metaColumns: RecordKind.timestamps,
        searchColumns: ["name", "address"], label: ("venue", "venues"), listPath: "/venues",
        references: [Reference("geographic_area_id", "geographic_area")], optional: ["latitude", "longitude", "venue_type"]
    ) { _, _, fields in
        _ = try VenueInput(name: fields.text("name"), address: fields.text("address"), areaId: fields.text("geographic_area_id"),
                           latitude: fields.text("latitude"), longitude: fields.text("longitude"), venueType: fields.text("venue_type"))
            .validated()
    }

    public init(row: Row) {
        let type: String? = row[Columns.venueType]
        self.init(id: row.uuid("id"), name: row[Columns.name], address: row[Columns.address], areaId: row.uuid("geographic_area_id"),
                  latitude: row[Columns.latitude], longitude: row[Columns.longitude], venueType: type.flatMap(VenueType.init(rawValue:)),
                  version: row["version"], createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container[Columns.name] = name
        container[Columns.address] = address
        container[Columns.areaId] = areaId.databaseText
        container[Columns.latitude] = latitude
        container[Columns.longitude] = longitude
        container[Columns.venueType] = venueType?.rawValue
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
