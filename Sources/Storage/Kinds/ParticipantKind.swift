import Domain
import Foundation
import GRDB

/// Participants as GRDB reads and encodes them. Writes go through `RecordTransaction` (not PersistableRecord), so
/// every row written records its change.
extension Participant: StoredRecord {
    public enum Columns {
        public static let name = Column("name"), email = Column("email"), phone = Column("phone"), notes = Column("notes")
        public static let homeVenueId = Column("home_venue_id")
    }

    public static let databaseTableName = "participants"

    static let kind = RecordKind(
        entity: "participant", table: databaseTableName, columns: ["name", "email", "phone", "notes", "home_venue_id"],
        metaColumns: RecordKind.timestamps, searchColumns: ["name", "email"], label: ("participant", "participants"),
        listPath: "/participants", references: [Reference("home_venue_id", "venue")],
        optional: ["phone", "notes", "home_venue_id"]
    ) { _, _, fields in
        _ = try ParticipantInput(name: fields.text("name"), email: fields.text("email"), phone: fields.text("phone"),
                                 notes: fields.text("notes"), homeVenueId: fields.text("home_venue_id")).validated()
    }

    public init(row: Row) {
        let venue: String? = row[Columns.homeVenueId]
        self.init(id: row.uuid("id"), name: row[Columns.name], email: row[Columns.email], phone: row[Columns.phone],
                  notes: row[Columns.notes], homeVenueId: venue.flatMap(UUID.init(uuidString:)), version: row["version"],
                  createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container[Columns.name] = name
        container[Columns.email] = email
        container[Columns.phone] = phone
        container[Columns.notes] = notes
        container[Columns.homeVenueId] = homeVenueId?.databaseText
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}

extension PersistenceContainer {
    /// The columns every kind with timestamps keeps. Times go in as their stored text: as Dates, GRDB would format each
    /// with a DateFormatter.
    mutating func encodeVersionAndTimes(_ version: Int, _ createdAt: Date, _ updatedAt: Date) {
        self["version"] = version
        self["created_at"] = createdAt.storedText
        self["updated_at"] = updatedAt.storedText
    }
}
