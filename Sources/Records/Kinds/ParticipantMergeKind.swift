import Domain
import Foundation
import Translations

/// A merge of two participant records, kept as a fact that travels: the participant `id` was merged into `survivorId`
/// (`ParticipantMergeInput.survivor`). Every Fieldbook that holds it sends whatever later names the merged-away record
/// to the survivor: on a hub, operations pushed by nodes that had not heard of the merge (`HubDecider.followingMerges`);
/// on every Fieldbook, the merged-away record's address. Append-only: a merge is never undone or changed, and the same
/// merge made on two nodes is one fact.
package struct ParticipantMergeRow: Sendable {
    /// The merged-away participant.
    package var id: UUID
    package var survivorId: UUID
    /// The merged-away record's synced fields as the merge saw them (JSON): a later edit made on these values is an
    /// edit of the person, not of a stale copy, and lands on the survivor.
    package var removedValues: String
    package var mergedAt: Date
    package var version: Int

    package init(id: UUID, survivorId: UUID, removedValues: String, mergedAt: Date, version: Int) {
        (self.id, self.survivorId, self.removedValues, self.mergedAt, self.version) = (id, survivorId, removedValues, mergedAt, version)
    }

    // No reference: the survivor may itself be merged later (merges chain), and a merge outlives both records.
    package static let declaration = RecordDeclaration<ParticipantMergeRow>([
        RecordField(\.survivorId, "survivor_id", .id, label: Message("Kept participant")),
        RecordField(\.removedValues, "removed_values", .text, label: Message("Merged-away details")),
        RecordField(\.mergedAt, "merged_at", .instant, label: Message("Merged")),
    ]) { id, version in ParticipantMergeRow(id: id, survivorId: .zero, removedValues: "", mergedAt: .unreadable, version: version) }

    package static let kind = RecordKind(
        entity: "participant_merge", table: "participant_merges", declaration, label: ("participant merge", "participant merges"),
        appendOnly: true, inFullExport: false
    ) { _, id, fields, errors in
        if let survivor = UUID(uuidString: fields.text("survivor_id")) {
            if ParticipantMergeInput.survivor(of: id, survivor) != survivor {
                errors.add("survivor_id", Message("Of two merged participants the one whose id comes first stays; this merge names the other"))
            }
        } else {
            errors.add("survivor_id", Message("survivor_id must be a participant id"))
        }
        if (try? JSONDecoder().decode([String: JSONValue].self, from: Data(fields.text("removed_values").utf8))) == nil {
            errors.add("removed_values", Message("removed_values must be the merged-away participant's details as a JSON object"))
        }
    }
}
