import Domain
import Foundation
import GRDB

/// The records a push decided, kept to be written together when its operations are all decided: each kind in one
/// statement (`RowWriter.putAll`), as a pull writes them. A statement per record was most of what a SQLite hub spent
/// taking a push (issue 15): each one journalled the pages it touched and made the search index write out its entries.
/// While the push is decided, the records it wrote are read from here.
final class DeferredHubRows {
    private struct Key: Hashable {
        let entity: String
        let id: UUID
    }
    private var states: [Key: RecordState] = [:]
    private var rows: [String: [StagedRow]] = [:]

    /// Only creates and edits of records other than accounts: a deletion's references are followed by the database as
    /// it happens, and accounts are read from their table (`account`) to judge each operation's rights.
    static func canDefer(_ request: PushRequest) -> Bool {
        !request.operations.contains { $0.operation == .delete || $0.entity == UserRow.kind.entity }
    }

    /// The record as this push left it, if it wrote it.
    func state(_ kind: RecordKind, _ id: UUID) -> RecordState? { states[Key(entity: kind.entity, id: id)] }

    /// Kept as the table will hold it (true as 1, 2.0 as 2), as a later operation of the push would read it there.
    func keep(_ state: RecordState, _ kind: RecordKind) {
        var stored = state
        stored.fields = state.fields.mapValues(\.asStored)
        states[Key(entity: kind.entity, id: state.entityId)] = stored
        rows[kind.entity, default: []].append(RecordStates.stagedRow(kind, stored))
    }

    /// Writes them, kinds that others refer to first (every reference was found before a record was kept). A unique
    /// key the database refuses throws its `DatabaseError`: which operation caused it cannot be told here, so the
    /// caller decides the push again one write at a time.
    func write(_ db: Database) throws {
        for kind in RecordKind.all { if let staged = rows[kind.entity] { try RowWriter.putAll(db, kind, staged) } }
        rows = [:]
    }
}
