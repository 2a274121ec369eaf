import Domain
import Foundation
import GRDB

/// Stops of visit lists as GRDB reads and encodes them; written through `RecordTransaction`.
extension VisitStop: StoredRecord {
    public static let databaseTableName = "visit_stops"

    static let kind = RecordKind(
        entity: "visit_stop", table: databaseTableName, columns: ["visit_list_id", "venue_id", "participant_id", "follow_up_of", "added_at"],
        label: ("stop", "stops"), instants: ["added_at"],
        references: [Reference("visit_list_id", "visit_list", .cascade), Reference("venue_id", "venue"),
                     Reference("participant_id", "participant", .setNull)],
        optional: ["participant_id", "follow_up_of"]
    ) { _, _, _ in }

    public init(row: Row) {
        let participant: String? = row["participant_id"], followUp: String? = row["follow_up_of"]
        self.init(id: row.uuid("id"), listId: row.uuid("visit_list_id"), venueId: row.uuid("venue_id"),
                  participantId: participant.flatMap(UUID.init(uuidString:)), followUpOf: followUp.flatMap(UUID.init(uuidString:)),
                  version: row["version"], createdAt: row.storedDate("added_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["visit_list_id"] = listId.databaseText
        container["venue_id"] = venueId.databaseText
        container["participant_id"] = participantId?.databaseText
        container["follow_up_of"] = followUpOf?.databaseText
        container["added_at"] = createdAt.storedText
        container["version"] = version
    }
}
