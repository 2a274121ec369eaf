import Domain
import Foundation

extension VisitStop {
    public static let declaration = RecordDeclaration<VisitStop>([
        RecordField(\.listId, "visit_list_id", .id, label: "Visit list", references: ("visit_list", .cascade)),
        RecordField(\.venueId, "venue_id", .id, label: "Venue", references: ("venue", .restrict), ifMissing: Venue.missing),
        RecordField(\.participantId, "participant_id", .optionalID, label: "Participant", references: ("participant", .setNull)),
        RecordField(\.followUpOf, "follow_up_of", .optionalID, label: "Follow-up of"),
        RecordField(\.createdAt, "added_at", .instant, label: "Added"),
    ]) { id, version in VisitStop(id: id, listId: .zero, venueId: .zero, participantId: nil, version: version) }

    public static let kind = RecordKind(entity: "visit_stop", table: "visit_stops", declaration, label: ("stop", "stops"))
}
