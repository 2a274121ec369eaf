import Domain
import Foundation
import GRDB

/// A merge of two participant records, kept as a fact that travels: the participant `id` was merged into `survivorId`
/// (`ParticipantMergeInput.survivor`). Every Fieldbook that holds it sends whatever later names the merged-away record
/// to the survivor: on a hub, operations pushed by nodes that had not heard of the merge (`HubDecider.followingMerges`);
/// on every Fieldbook, the merged-away record's address. Append-only: a merge is never undone or changed, and the same
/// merge made on two nodes is one fact.
struct ParticipantMergeRow: StoredRecord {
    /// The merged-away participant.
    var id: UUID
    var survivorId: UUID
    /// The merged-away record's synced fields as the merge saw them (JSON): a later edit made on these values is an
    /// edit of the person, not of a stale copy, and lands on the survivor.
    var removedValues: String
    var mergedAt: Date
    var version: Int

    static let databaseTableName = "participant_merges"

    static let kind = RecordKind(
        entity: "participant_merge", table: databaseTableName, columns: ["survivor_id", "removed_values", "merged_at"],
        label: ("participant merge", "participant merges"), appendOnly: true, inFullExport: false, instants: ["merged_at"]
    ) { _, id, fields in
        var errors = ValidationError()
        if let survivor = UUID(uuidString: fields.text("survivor_id")) {
            if ParticipantMergeInput.survivor(of: id, survivor) != survivor {
                errors.add("survivor_id", "Of two merged participants the one whose id comes first stays; this merge names the other")
            }
        } else {
            errors.add("survivor_id", "survivor_id must be a participant id")
        }
        if (try? JSONDecoder().decode([String: JSONValue].self, from: Data(fields.text("removed_values").utf8))) == nil {
            errors.add("removed_values", "removed_values must be the merged-away participant's details as a JSON object")
        }
        try errors.throwIfAny()
    }

    init(removed: Participant, survivor: UUID, at date: Date = Date()) throws {
        let values = try removed.syncedFields()
        (id, survivorId, mergedAt, version) = (removed.id, survivor, date, 1)
        removedValues = String(decoding: try JSONEncoder.sortedKeys.encode(values), as: UTF8.self)
    }

    init(row: Row) {
        (id, survivorId, removedValues) = (row.uuid("id"), row.uuid("survivor_id"), row["removed_values"])
        (mergedAt, version) = (row.storedDate("merged_at"), row["version"])
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["survivor_id"] = survivorId.databaseText
        container["removed_values"] = removedValues
        container["merged_at"] = mergedAt.storedText
        container["version"] = version
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
        try RowCounts.addTriggers(db, table: databaseTableName)
    }
}

extension Database {
    /// The participant a merged-away participant's merges lead to, or nil when `id` was never merged away.
    func mergeSurvivor(of id: UUID) throws -> UUID? {
        try ParticipantMerges.survivor(of: id) { try RecordStates.read(self, ParticipantMergeRow.kind, id: $0) }
    }
}

/// Following merges to the record that stayed, in whichever store holds them.
public enum ParticipantMerges {
    /// The last record of the chain of merges starting at `id` (each merge leads to an earlier id, so it ends), or
    /// nil when `id` was never merged away. `merge` reads the merge of one participant (`deleted` when there is none).
    public static func survivor(of id: UUID, merge: (UUID) throws -> RecordState) throws -> UUID? {
        var current = id
        while case let state = try merge(current), !state.deleted,
              let next = UUID(uuidString: state.fields.text("survivor_id")), next.lowercaseText < current.lowercaseText {
            current = next
        }
        return current == id ? nil : current
    }

    /// The merged-away record's values as the merge saw them.
    public static func removedValues(_ merge: RecordState) -> [String: JSONValue] {
        (try? JSONDecoder().decode([String: JSONValue].self, from: Data(merge.fields.text("removed_values").utf8))) ?? [:]
    }

    public static var entity: String { ParticipantMergeRow.kind.entity }
}

extension SyncOperation {
    /// For the creation of a merge, the participant it names as the one that stays.
    public var mergeSurvivor: UUID? {
        entity == ParticipantMerges.entity && operation == .create ? UUID(uuidString: fields.text("survivor_id")) : nil
    }
}
