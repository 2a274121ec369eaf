import Domain
import Foundation
import Hub
import Records
import GRDB

/// The records a push decided, kept to be written together: each kind in one statement (`RowWriter.putAll`), as a pull
/// writes them. A statement per record would journal the pages it touched and make the search index write out its
/// entries each time.
final class DeferredHubRows {
    private struct Key: Hashable {
        let entity: String
        let id: UUID
    }
    private var kept = Set<Key>()
    private var rows: [String: [StagedRow]] = [:]

    /// Only creates and edits of records other than accounts and merges: a deletion's references are followed by the
    /// database as it happens, accounts are read from their table (`account`) to judge each operation's rights, and a
    /// merge moves and deletes what names the merged-away record (`HubDecider.completeMerge`).
    static func canDefer(_ request: PushRequest) -> Bool {
        !request.holdsDeletionsOrMerges && !request.operations.contains { $0.entity == UserRow.kind.entity }
    }

    /// True when this push wrote the record and it is still kept here (it exists: a deferred push deletes nothing).
    func holds(_ kind: RecordKind, _ id: UUID) -> Bool { kept.contains(Key(entity: kind.entity, id: id)) }

    /// True when a record of the kind is kept here: only then must it be written before the kind's table is searched.
    func keepsAny(_ kind: RecordKind) -> Bool { rows[kind.entity] != nil }

    func keep(_ state: RecordState, _ kind: RecordKind) {
        kept.insert(Key(entity: kind.entity, id: state.entityId))
        rows[kind.entity, default: []].append(RecordStates.stagedRow(kind, state))
    }

    /// Writes what is kept, kinds that others refer to first (every reference was found before a record was kept). A
    /// unique key the database refuses throws its `DatabaseError`: which operation caused it cannot be told here, so
    /// the push is decided again one write at a time.
    func write(_ db: Database) throws {
        try RowWriter.putAll(db, byKind: rows)
        (kept, rows) = ([], [:])
    }
}
