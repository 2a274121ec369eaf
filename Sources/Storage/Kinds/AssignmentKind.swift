import Domain
import Foundation
import GRDB

/// One stored assignment of a participant to an activity in a role.
struct AssignmentRow: StoredRecord {
    var id: UUID
    var activityId: UUID
    var participantId: UUID
    var roleId: UUID
    var assignedAt: Date
    var version: Int

    static let databaseTableName = "assignments"

    static let kind = RecordKind(
        entity: "assignment", table: databaseTableName, columns: ["activity_id", "participant_id", "role_id", "assigned_at"],
        label: ("assignment", "assignments"), instants: ["assigned_at"],
        references: [Reference("activity_id", "activity", .cascade), Reference("participant_id", "participant", .cascade),
                     Reference("role_id", "participant_role")],
        uniqueKeys: [["activity_id", "participant_id", "role_id"]]
    ) { _, _, _ in }

    init(activityId: UUID, participantId: UUID, roleId: UUID, assignedAt: Date = Date()) {
        (id, self.activityId, self.participantId, self.roleId, self.assignedAt, version) = (UUID(), activityId, participantId, roleId, assignedAt, 1)
    }

    init(row: Row) {
        (id, activityId, participantId, roleId) = (row.uuid("id"), row.uuid("activity_id"), row.uuid("participant_id"), row.uuid("role_id"))
        (assignedAt, version) = (row.storedDate("assigned_at"), row["version"])
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["activity_id"] = activityId.databaseText
        container["participant_id"] = participantId.databaseText
        container["role_id"] = roleId.databaseText
        container["assigned_at"] = assignedAt.storedText
        container["version"] = version
    }
}
