import Domain
import Foundation
import Records
import GRDB

/// Assignments name their activity (by name or Fieldbook id), participant (by email, name or Fieldbook id) and role
/// (by name or Fieldbook id). The same three are the same assignment; one already stored is kept as it is. A role that
/// is not here is created on request.
struct AssignmentImporter: RowImporter {
    let activities: NamedRecords
    let participants: NamedRecords
    var roles: NamedRecords

    init(_ db: Database, creating: ImportCreating) throws {
        activities = try NamedRecords(db, table: "activities", noun: "activity")
        roles = try NamedRecords(db, table: "participant_roles", noun: "role")
        roles.missing = MissingNames(.role, creating: creating)
        var people = NamedRecords(noun: "participant", tellingApart: "their email address")
        for row in try Row.fetchAll(db, sql: "SELECT id, name, email FROM participants ORDER BY created_at") {
            people.add(id: row["id"], keys: [row["name"], row["email"]].filter { !$0.isEmpty })
        }
        participants = people
    }

    var missingNames: [MissingNames] { [roles.missing!] }

    private func resolved(_ row: ImportedRow) -> [(ImportField, ResolvedName)] {
        [(.activity, activities.resolve(row[.activity])), (.participant, participants.resolve(row[.participant])), (.role, roles.resolve(row[.role]))]
    }

    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError] {
        var problems = resolved(row).flatMap { field, name in
            row[field].isEmpty ? [FieldError(field: field.rawValue, message: "Give the assignment's \(field.heading.lowercased())")] : name.problems(field)
        }
        if !row[.assignedAt].isEmpty, SyncDateFormat.date(from: row[.assignedAt]) == nil {
            problems.append(FieldError(field: ImportField.assignedAt.rawValue, message: "Write when it was assigned as 2026-01-31T09:30:00Z, or leave it empty for now"))
        }
        return problems
    }

    /// The three ids it names, as one key; an assignment has no weak key.
    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?) {
        let ids = resolved(row).map(\.1)
        guard ids.allSatisfy({ $0.problem == nil && !$0.id.isEmpty }) else { return (nil, nil) }
        return (ids.map(\.id).joined(separator: SearchText.separator), nil)
    }

    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)? {
        guard let ids = strong?.components(separatedBy: SearchText.separator), ids.count == 3,
              let id = try String.fetchOne(db.cachedStatement(sql: """
                SELECT id FROM assignments WHERE activity_id = ? AND participant_id = ? AND role_id = ?
                """), arguments: StatementArguments(ids)) else { return nil }
        return (.sameKey, id)
    }

    func create(_ transaction: RecordTransaction, _ row: ImportedRow, id: UUID) throws {
        let activity = try activities.checked(row[.activity], .activity)
        let participant = try participants.checked(row[.participant], .participant)
        let role = try roles.checked(row[.role], .role)
        if roles.resolve(row[.role]).isPlanned { try roles.missing!.category(.participantRole, role, transaction) }
        try transaction.assign(participant: UUID(uuidString: participant)!, role: UUID(uuidString: role)!, toActivity: UUID(uuidString: activity)!,
                               at: SyncDateFormat.date(from: row[.assignedAt]) ?? Date(), id: id)
    }

    /// An assignment holds nothing to change: one stored is kept as it is.
    func merge(_ transaction: RecordTransaction, _ row: ImportedRow, into id: UUID) throws -> Bool {
        try transaction.exists(id, in: AssignmentRow.kind.table)
    }
}
