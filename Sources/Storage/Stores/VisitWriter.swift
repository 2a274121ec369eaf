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

/// A visit list's writes: given only to an organizer, never back to planned once started; deleted with its stops (each
/// deletion recorded) only while planned (`VisitList.allowsDeleting`), and never once anything was logged at them.
extension VisitList: WritableRecord {
    public static func validated(_ input: VisitListInput, as kind: RecordKind) throws -> VisitListInput.Valid { try input.validated() }

    func checkWrite(over stored: VisitList?, _ valid: VisitListInput.Valid, in transaction: RecordTransaction) throws {
        try transaction.ensureOrganizer(assigneeId)
        if let stored, !stored.allowsStatus(valid.status) {
            throw ValidationError([FieldError(field: VisitList.declaration.column(\.status), VisitList.staysStarted)])
        }
    }

    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        let logged = blockers.map(\.count).reduce(0, +)
        return .stillReferenced(message: VisitList.deletionRefusal(name: name, logged: logged).english, references: [])
    }

    func willBeRemoved(in transaction: RecordTransaction) throws {
        guard allowsDeleting else { throw DomainError.stillReferenced(message: VisitList.listStaysOnceStarted.english, references: []) }
        for stop in try VisitStop.fetchAll(transaction.db, sql: "SELECT * FROM visit_stops WHERE visit_list_id = ?", arguments: [id.databaseText]) {
            try transaction.delete(stop)
        }
    }
}

/// A stop's removal: refused once visits were logged there (logs are kept), or once its list's walk has started
/// (`VisitList.allowsRemovingStops`). Every removal made on this node passes here. Pulled changes are the hub's row
/// states, taken as they are, and the hub judges a pushed deletion by the stop's version alone: a node that still saw
/// the list planned can remove a stop another node's phone has started walking (README, "Field visits").
extension VisitStop: RemovableRecord {
    /// A started walk is the reason given first: it holds for every stop on the list, logged at or not.
    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        try ensureWalkNotStarted(in: transaction)
        return .stillReferenced(message: "This stop cannot be removed: visits were logged there, and logs are kept.", references: [])
    }

    func willBeRemoved(in transaction: RecordTransaction) throws { try ensureWalkNotStarted(in: transaction) }

    private func ensureWalkNotStarted(in transaction: RecordTransaction) throws {
        guard try transaction.fetch(VisitList.self, id: listId).allowsRemovingStops else {
            throw DomainError.stillReferenced(message: VisitList.stopsStayOnceStarted.english, references: [])
        }
    }
}
