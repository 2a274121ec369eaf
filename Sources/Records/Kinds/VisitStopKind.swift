import Domain
import Foundation
import Translations

extension VisitStop {
    public static let declaration = RecordDeclaration<VisitStop>([
        RecordField(\.listId, "visit_list_id", .id, label: Message("Visit list"), references: ("visit_list", .cascade),
                    ifMissing: Message("The chosen visit list no longer exists; choose another")),
        RecordField(\.venueId, "venue_id", .id, label: Message("Venue"), references: ("venue", .restrict), ifMissing: Venue.missing),
        RecordField(\.participantId, "participant_id", .optionalID, label: Message("Participant"), references: ("participant", .setNull),
                    ifMissing: Message("The chosen participant no longer exists; choose another")),
        RecordField(\.followUpOf, "follow_up_of", .optionalID, label: Message("Follow-up of")),
        RecordField(\.createdAt, "added_at", .instant, label: Message("Added")),
    ]) { id, version in VisitStop(id: id, listId: .zero, venueId: .zero, participantId: nil, version: version) }

    public static let kind = RecordKind(entity: "visit_stop", table: "visit_stops", declaration, label: ("stop", "stops"))
}
