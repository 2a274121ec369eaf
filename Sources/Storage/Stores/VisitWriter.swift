import Domain
import Foundation
import GRDB
import Records

/// The visit writer's steps: stops added once per target, lists given only to organizers.
extension RecordTransaction {
    /// Adds a stop unless the list already visits that target; answers the list's stop for it either way.
    @discardableResult
    func addStop(_ target: StopTarget, to listId: UUID, followUpOf: UUID? = nil) throws -> VisitStop {
        if let existing = try VisitStop.fetchOne(db, sql: """
            SELECT * FROM visit_stops WHERE visit_list_id = ? AND venue_id = ? AND participant_id IS ?
            """, arguments: [listId.databaseText, target.venueId.databaseText, target.participantId?.databaseText]) {
            return existing
        }
        return try create(VisitStop(listId: listId, venueId: target.venueId, participantId: target.participantId, followUpOf: followUpOf))
    }

    /// The stop, which must be on the list (else it does not exist here).
    func stop(_ stopId: UUID, onList listId: UUID) throws -> VisitStop {
        let stop = try fetch(VisitStop.self, id: stopId)
        guard stop.listId == listId else { throw DomainError.notFound(entity: "stop") }
        return stop
    }

    func stopCount(_ listId: UUID) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM visit_stops WHERE visit_list_id = ?", arguments: [listId.databaseText]) ?? 0
    }

    /// Refuses an assignee who is not an enabled editor or administrator.
    func ensureOrganizer(_ userId: UUID) throws {
        let row = try Row.fetchOne(db, sql: "SELECT role, is_disabled FROM users WHERE id = ?", arguments: [userId.databaseText])
        guard let row, (UserRole(rawValue: row["role"]) ?? .readOnly).canEditRecords, !(row["is_disabled"] as Bool) else {
            throw ValidationError.clash(VisitList.declaration.column(\.assigneeId), VisitList.notAnOrganizer)
        }
    }
}

/// A visit list's writes: given only to an organizer; deleted with its stops (each deletion recorded), refused once
/// anything was logged at them (logs are never lost).
extension VisitList: WritableRecord {
    public static func validated(_ input: VisitListInput, as kind: RecordKind) throws -> VisitListInput.Valid { try input.validated() }

    func checkWrite(over stored: VisitList?, _ valid: VisitListInput.Valid, in transaction: RecordTransaction) throws {
        try transaction.ensureOrganizer(assigneeId)
    }

    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        let logged = blockers.map(\.count).reduce(0, +)
        return .stillReferenced(message: VisitList.deletionRefusal(name: name, logged: logged).english, references: [])
    }

    func willBeRemoved(in transaction: RecordTransaction) throws {
        for stop in try VisitStop.fetchAll(transaction.db, sql: "SELECT * FROM visit_stops WHERE visit_list_id = ?", arguments: [id.databaseText]) {
            try transaction.delete(stop)
        }
    }
}

extension VisitStop: RemovableRecord {
    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        .stillReferenced(message: "This stop cannot be removed: visits were logged there, and logs are kept.", references: [])
    }
}
