import Domain
import Foundation
import Records
import GRDB

/// An edit of this node's that lost at the hub, kept with both values.
public struct SyncConflict: Sendable, Equatable {
    /// What lost: an edit to fields, a delete of a record edited meanwhile, or an edit of a record deleted meanwhile.
    public enum Kind: String, Sendable { case edit, delete, deleted }

    public let id: UUID
    public let entity: String
    public let entityId: UUID
    public let kind: Kind
    public let fields: [LosingField]
    public let author: String
    public let editedAt: Date
    public let detectedAt: Date
    public let resolution: String?
    /// The record's name (or email) now, for people to recognise it; nil when it no longer exists.
    public let recordLabel: String?
}

/// Conflicts: listing them, re-applying the losing values, dismissing them.
extension AppDatabase {
    public func conflicts(includeResolved: Bool = false, limit: Int = 200) throws -> [SyncConflict] {
        try read { db in
            let filter = includeResolved ? "" : "WHERE resolution IS NULL"
            return try Row.fetchAll(db, sql: "SELECT * FROM sync_conflicts \(filter) ORDER BY detected_at DESC LIMIT ?", arguments: [limit])
                .map { try Self.conflict(db, $0) }
        }
    }

    public func openConflictCount() throws -> Int {
        try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sync_conflicts WHERE resolution IS NULL") ?? 0 }
    }

    /// Open conflicts whose losing edit `actor` made: the ones that person is told about.
    public func openConflictCount(authoredBy actor: Actor) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_conflicts WHERE resolution IS NULL AND author = ?",
                             arguments: [actor.recorded]) ?? 0
        }
    }

    public func conflict(id: UUID) throws -> SyncConflict {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_conflicts WHERE id = ?", arguments: [id.databaseText]) else {
                throw DomainError.notFound(entity: "conflict")
            }
            return try Self.conflict(db, row)
        }
    }

    /// Writes the losing values again as a new edit (or deletes again), queued for the hub like any edit.
    public func reapplyConflict(id: UUID, by actor: Actor) throws {
        let conflict = try conflict(id: id)
        guard conflict.resolution == nil else { return }
        guard conflict.kind != .deleted, let table = RecordKind.named(conflict.entity) else {
            throw DomainError.protected(message: "The record was deleted, so its old values cannot be applied again. Create it anew if it is still needed.")
        }
        if conflict.entity == "participant", conflict.kind == .edit {
            return try reapplyParticipantEdit(conflict, by: actor)
        }
        try transaction(by: actor) { transaction in
            let (db, changes) = (transaction.db, transaction.changes)
            let state = try RecordStates.read(db, table, id: conflict.entityId)
            guard !state.deleted else { throw DomainError.notFound(entity: table.noun) }
            if conflict.kind == .delete {
                try RowWriter.delete(db, table, id: conflict.entityId)
                try changes.recordDelete(conflict.entity, id: conflict.entityId, baseVersion: state.version)
            } else {
                var mine: [String: JSONValue] = [:]
                for field in conflict.fields where table.columns.contains(field.name) { mine[field.name] = field.mine }
                // A credential is never set again from a conflict (`credentialColumns`): an old password must stay out.
                mine = table.withoutCredentials(mine)
                guard !mine.isEmpty else { return try Self.resolve(db, id, as: "dismissed") }
                let edited = try RecordStates.writeEdit(db, table, state, mine)
                try changes.recordUpdate(conflict.entity, id: conflict.entityId, before: state.fields,
                                         after: edited.fields.filter { table.columns.contains($0.key) }, baseVersion: state.version)
            }
            try Self.resolve(db, id, as: "reapplied")
        }
    }

    /// A participant's lost edit goes through the participant form's own write, so a new home venue also opens a new
    /// address-history period, as it would have when typed in.
    private func reapplyParticipantEdit(_ conflict: SyncConflict, by actor: Actor) throws {
        let current = try participant(id: conflict.entityId)
        var mine: [String: JSONValue] = [:]
        for field in conflict.fields { mine[field.name] = field.mine }
        let kept = FieldTexts(Participant.declaration, record: current)
        let input = ParticipantInput(FieldTexts(Participant.declaration) { mine[$0]?.text ?? kept[column: $0] })
        let valid = try input.validated()
        try transaction(by: actor) { transaction in
            try transaction.update(Participant.self, id: conflict.entityId, valid, expectedVersion: nil)
            try Self.resolve(transaction.db, conflict.id, as: "reapplied")
        }
    }

    /// Accepts the winning values; the conflict leaves the open list.
    public func dismissConflict(id: UUID) throws {
        try writeLocal { db in
            try Self.resolve(db, id, as: "dismissed")
            guard db.changesCount == 1 else { throw DomainError.notFound(entity: "conflict") }
        }
    }

    private static func resolve(_ db: Database, _ id: UUID, as resolution: String) throws {
        try db.execute(sql: "UPDATE sync_conflicts SET resolution = ?, resolved_at = ? WHERE id = ? AND resolution IS NULL",
                       arguments: [resolution, Date().storedText, id.databaseText])
    }

    /// A record's name (or email) as people know it; nil when it does not exist here.
    public func recordLabel(entity: String, id: UUID) throws -> String? {
        try read { db in try Self.recordLabel(db, entity: entity, id: id) }
    }

    private static func recordLabel(_ db: Database, entity: String, id: UUID) throws -> String? {
        guard let table = RecordKind.named(entity) else { return nil }
        let state = try RecordStates.read(db, table, id: id)
        guard !state.deleted else { return nil }
        let name = state.fields.text("name")
        if !name.isEmpty { return name }
        let email = state.fields.text("email")
        return email.isEmpty ? state.fields.text("effective_from") : email
    }

    private static func conflict(_ db: Database, _ row: Row) throws -> SyncConflict {
        let entity: String = row["entity"]
        let entityId = row.uuid("entity_id")
        let label = try recordLabel(db, entity: entity, id: entityId)
        let fields = (try? JSONDecoder().decode([LosingField].self, from: Data((row["fields"] as String).utf8))) ?? []
        return SyncConflict(id: row.uuid("id"), entity: entity, entityId: entityId, kind: SyncConflict.Kind(rawValue: row["kind"]) ?? .edit,
                            fields: fields, author: row["author"], editedAt: row["edited_at"], detectedAt: row["detected_at"],
                            resolution: row["resolution"], recordLabel: label)
    }
}
