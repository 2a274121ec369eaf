import Domain
import Foundation
import GRDB

/// The visit writer: the only code that writes lists, stops and logs.
extension RecordTransaction {
    func createVisitList(_ valid: VisitListInput.Valid) throws -> VisitList {
        try ensureOrganizer(valid.assigneeId)
        let now = Date()
        let list = VisitList(id: UUID(), name: valid.name, visitDate: valid.visitDate, purpose: valid.purpose, script: valid.script,
                             assigneeId: valid.assigneeId, status: valid.status, version: 1, createdAt: now, updatedAt: now)
        try insert(list)
        return list
    }

    /// Adds a stop unless the list already visits that target; answers the list's stop for it either way.
    @discardableResult
    func addStop(_ target: StopTarget, to listId: UUID, followUpOf: UUID? = nil) throws -> VisitStop {
        if let existing = try VisitStop.fetchOne(db, sql: """
            SELECT * FROM visit_stops WHERE visit_list_id = ? AND venue_id = ? AND participant_id IS ?
            """, arguments: [listId.databaseText, target.venueId.databaseText, target.participantId?.databaseText]) {
            return existing
        }
        try ensureVenueExists(target.venueId, field: "venue_id")
        if let participant = target.participantId {
            try ensureExists(participant, in: "participants", field: "participant_id", "The chosen participant no longer exists; choose another")
        }
        let stop = VisitStop(listId: listId, venueId: target.venueId, participantId: target.participantId, followUpOf: followUpOf)
        try insert(stop)
        return stop
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

    func exists(_ stopId: UUID, loggedIn: Void) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM contact_logs WHERE visit_stop_id = ?)", arguments: [stopId.databaseText]) ?? false
    }

    /// Refuses an assignee who is not an enabled editor or administrator.
    func ensureOrganizer(_ userId: UUID) throws {
        let row = try Row.fetchOne(db, sql: "SELECT role, is_disabled FROM users WHERE id = ?", arguments: [userId.databaseText])
        guard let row, (UserRole(rawValue: row["role"]) ?? .readOnly).canEditRecords, !(row["is_disabled"] as Bool) else {
            throw ValidationError.clash("assigned_user_id", "Choose an editor or administrator whose account is enabled; read-only users cannot log visits")
        }
    }
}
