import Domain
import Foundation
import GRDB
import Records

extension ParticipantMergeRow {
    init(removed: Participant, survivor: UUID, at date: Date = Date()) throws {
        let values = removed.syncedFields()
        self.init(id: removed.id, survivorId: survivor, removedValues: String(decoding: try JSONEncoder.sortedKeys.encode(values), as: UTF8.self),
                  mergedAt: date, version: 1)
    }

    /// Merges taken from the hub leave no copy of a merged-away record here, not even one whose local edits still wait
    /// (the hub sends those to the survivor, `HubDecider.followingMerges`, and skipping it would leave two records of the
    /// person here): what refers to it here refers to the survivor, an assignment the survivor holds already goes, and
    /// it goes. Not queued: the hub has done the same.
    static func followHere(_ db: Database, _ states: [RecordState]) throws {
        for merge in states where merge.entity == kind.entity && !merge.deleted {
            let gone = merge.entityId.databaseText
            guard try db.recordExists(merge.entityId, in: Participant.databaseTableName),
                  let survivor = try db.mergeSurvivor(of: merge.entityId)?.databaseText else { continue }
            for (referring, reference) in RecordKind.referencesToParticipants {
                try db.execute(sql: "UPDATE OR IGNORE \(referring.table) SET \(reference.column) = ? WHERE \(reference.column) = ?",
                               arguments: [survivor, gone])
                try db.execute(sql: "DELETE FROM \(referring.table) WHERE \(reference.column) = ?", arguments: [gone])
            }
            try RowWriter.delete(db, Participant.kind, id: merge.entityId)
        }
    }

    /// The table, its change-log and row-count triggers (migration v17).
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            -- No foreign key: the survivor may itself be merged later (merges chain), and a merge outlives both records.
            CREATE TABLE participant_merges (
                id TEXT PRIMARY KEY NOT NULL,
                survivor_id TEXT NOT NULL,
                removed_values TEXT NOT NULL,
                merged_at TEXT NOT NULL,
                version INTEGER NOT NULL DEFAULT 1
            );
            """)
        try SyncSchema.createChangeLogTriggers(db, kind)
        try RowCounts.addTriggers(db, table: kind.table)
    }
}

extension Database {
    /// The participant a merged-away participant's merges lead to, or nil when `id` was never merged away.
    func mergeSurvivor(of id: UUID) throws -> UUID? {
        try ParticipantMerges.survivor(of: id) { try RecordStates.read(self, ParticipantMergeRow.kind, id: $0) }
    }
}
