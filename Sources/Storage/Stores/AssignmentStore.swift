import Domain
import Foundation
import Records
import GRDB

/// A participant taking part in an activity in a role (Requirement 6).
public struct Assignment: Sendable, Equatable, Identifiable {
    public let id: UUID
    public let activityId: UUID
    public let participantId: UUID
    public let participantName: String
    public let roleId: UUID
    public let roleName: String
    public let assignedAt: Date
}

/// Assignments: the same participant in the same role twice is refused (Property 8).
extension AppDatabase {
    public func assignments(ofActivity id: UUID) throws -> [Assignment] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT s.*, p.name AS participant_name, r.name AS role_name FROM assignments s
                JOIN participants p ON p.id = s.participant_id JOIN participant_roles r ON r.id = s.role_id
                WHERE s.activity_id = ? ORDER BY p.name COLLATE NOCASE, r.name
                """, arguments: [id.databaseText]).map(Assignment.init(row:))
        }
    }

    public func assignment(id: UUID) throws -> Assignment {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.*, p.name AS participant_name, r.name AS role_name FROM assignments s
                JOIN participants p ON p.id = s.participant_id JOIN participant_roles r ON r.id = s.role_id WHERE s.id = ?
                """, arguments: [id.databaseText]) else { throw DomainError.notFound(entity: "assignment") }
            return Assignment(row: row)
        }
    }

    /// Assigns a participant (ids as typed in the form) to an activity in a role.
    @discardableResult
    public func assign(participant participantText: String, role roleText: String, toActivity activityId: UUID,
                       by actor: Actor) throws -> Assignment {
        var errors = ValidationError()
        let participantId = AssignmentRules.participantId.check(participantText, field: "participant_id", into: &errors)
        let roleId = AssignmentRules.roleId.check(roleText, field: "role_id", into: &errors)
        try errors.throwIfAny()
        let id = try transaction(by: actor) { try $0.assign(participant: participantId!, role: roleId!, toActivity: activityId).id }
        return try assignment(id: id)
    }

    public func unassign(_ id: UUID, by actor: Actor) throws {
        try transaction(by: actor) { try $0.remove($0.fetch(AssignmentRow.self, id: id)) }
    }

    /// Assigns several participants (ids as typed in the form) in one role, in one transaction. People already assigned
    /// in that role are left as they are and named in the result; a bad id or role refuses the whole request.
    public func assign(participants texts: [String], role roleText: String, toActivity activityId: UUID,
                       by actor: Actor) throws -> BulkAssignment {
        var errors = ValidationError()
        if texts.isEmpty { errors.add("participant_id", "Choose at least one participant: search, then tick them") }
        let ids = texts.compactMap { AssignmentRules.participantId.check($0, field: "participant_id", into: &errors) }
        let roleId = AssignmentRules.roleId.check(roleText, field: "role_id", into: &errors)
        try errors.throwIfAny()
        return try transaction(by: actor) { records in
            try records.assignAll(Array(Set(ids)).map { ($0, roleId!) }, toActivity: activityId)
        }
    }

    /// Assigns everyone assigned to `sourceId`, each in the role they have there, in one transaction.
    public func assignEveryone(from sourceId: UUID, toActivity activityId: UUID, by actor: Actor) throws -> BulkAssignment {
        try transaction(by: actor) { records in
            guard try records.exists(sourceId, in: "activities") else { throw DomainError.notFound(entity: "activity") }
            let pairs = try Row.fetchAll(records.db, sql: "SELECT participant_id, role_id FROM assignments WHERE activity_id = ?",
                                         arguments: [sourceId.databaseText]).map { ($0.uuid("participant_id"), $0.uuid("role_id")) }
            return try records.assignAll(pairs, toActivity: activityId)
        }
    }

    /// Removes several assignments of one activity in one transaction; ids of other activities are refused.
    public func unassign(_ ids: [UUID], fromActivity activityId: UUID, by actor: Actor) throws {
        try transaction(by: actor) { records in
            for id in Set(ids) {
                let row = try records.fetch(AssignmentRow.self, id: id)
                guard row.activityId == activityId else { throw DomainError.notFound(entity: "assignment") }
                try records.remove(row)
            }
        }
    }
}

/// What a bulk assignment did: who was assigned, and who already was (in that role) and was left alone.
public struct BulkAssignment: Sendable, Equatable {
    public var assigned: [String] = []
    public var alreadyAssigned: [String] = []
}

extension Assignment {
    init(row: Row) {
        self.init(id: row.uuid("id"), activityId: row.uuid("activity_id"), participantId: row.uuid("participant_id"),
                  participantName: row["participant_name"], roleId: row.uuid("role_id"), roleName: row["role_name"],
                  assignedAt: row.storedDate("assigned_at"))
    }
}

extension AssignmentRow: RemovableRecord {
    /// The column naming the activity, which `assign` finds before it writes.
    static let activityColumn = declaration.column(\.activityId)
}

/// The assignment writer's steps: each (participant, role) pair once per activity.
extension RecordTransaction {
    /// Assigns each (participant, role) pair not yet assigned; names of those that already were are returned apart.
    func assignAll(_ pairs: [(participant: UUID, role: UUID)], toActivity activityId: UUID) throws -> BulkAssignment {
        var result = BulkAssignment()
        for (participant, role) in pairs {
            let name = try String.fetchOne(db, sql: "SELECT name FROM participants WHERE id = ?", arguments: [participant.databaseText]) ?? ""
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM assignments WHERE activity_id = ? AND participant_id = ? AND role_id = ?)",
                                 arguments: [activityId.databaseText, participant.databaseText, role.databaseText]) == true {
                result.alreadyAssigned.append(name)
                continue
            }
            try assign(participant: participant, role: role, toActivity: activityId)
            result.assigned.append(name)
        }
        result.assigned.sort { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
        result.alreadyAssigned.sort { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }
        return result
    }

    /// Assigns a participant to an activity in a role; the same person twice in the same role is refused.
    @discardableResult
    func assign(participant participantId: UUID, role roleId: UUID, toActivity activityId: UUID, at date: Date = Date(),
                id: UUID = UUID()) throws -> AssignmentRow {
        guard try exists(activityId, in: "activities") else { throw DomainError.notFound(entity: "activity") }
        let arguments: StatementArguments = [activityId.databaseText, participantId.databaseText, roleId.databaseText]
        if try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM assignments WHERE activity_id = ? AND participant_id = ? AND role_id = ?)
            """), arguments: arguments) == true {
            let participant = try String.fetchOne(db, sql: "SELECT name FROM participants WHERE id = ?", arguments: [participantId.databaseText]) ?? ""
            let role = try String.fetchOne(db, sql: "SELECT name FROM participant_roles WHERE id = ?", arguments: [roleId.databaseText]) ?? ""
            throw ValidationError.clash("role_id", "\(participant) is already assigned to this activity as \(role); choose another role or participant")
        }
        return try create(AssignmentRow(id: id, activityId: activityId, participantId: participantId, roleId: roleId, assignedAt: date),
                          found: [AssignmentRow.activityColumn])
    }
}
