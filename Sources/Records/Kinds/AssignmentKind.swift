import Domain
import Foundation
import Translations

/// One stored assignment of a participant to an activity in a role.
package struct AssignmentRow: Sendable {
    package var id: UUID
    package var activityId: UUID
    package var participantId: UUID
    package var roleId: UUID
    package var assignedAt: Date
    package var version: Int

    package init(id: UUID = UUID(), activityId: UUID, participantId: UUID, roleId: UUID, assignedAt: Date = Date(), version: Int = 1) {
        (self.id, self.activityId, self.participantId, self.roleId, self.assignedAt, self.version) = (id, activityId, participantId, roleId, assignedAt, version)
    }

    package static let declaration = RecordDeclaration<AssignmentRow>([
        RecordField(\.activityId, "activity_id", .id, label: Message("Activity"), references: ("activity", .cascade),
                    ifMissing: Message("The chosen activity no longer exists; choose another")),
        RecordField(\.participantId, "participant_id", .id, label: Message("Participant"), rule: .id(AssignmentRules.participantId),
                    references: ("participant", .cascade), ifMissing: Message("That participant no longer exists; search again")),
        RecordField(\.roleId, "role_id", .id, label: Message("Role"), rule: .id(AssignmentRules.roleId), references: ("participant_role", .restrict),
                    ifMissing: Message("That role no longer exists; choose another")),
        RecordField(\.assignedAt, "assigned_at", .instant, label: Message("Assigned")),
    ]) { id, version in
        AssignmentRow(id: id, activityId: .zero, participantId: .zero, roleId: .zero, assignedAt: .unreadable, version: version)
    }

    package static let kind = RecordKind(entity: "assignment", table: "assignments", declaration, label: ("assignment", "assignments"),
                                         uniqueKeys: [["activity_id", "participant_id", "role_id"]])
}
