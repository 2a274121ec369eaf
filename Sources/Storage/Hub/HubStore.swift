import Domain
import Foundation
import Hub
import Records
import GRDB

/// The hub side of sync: applying pushed operations once each, in order, and paging through the change log.
extension AppDatabase {
    /// The kinds of record that sync (the `entity` of an operation or a change).
    public static var syncedEntities: [String] { RecordKind.all.map(\.entity) }

    /// Applies a node's batch in order; an operation id seen before gets the answer it got the first time, and one
    /// rejected operation leaves the others applied.
    ///
    /// A push of creates and edits is decided first and its records written together (`DeferredHubRows`). Should the
    /// database refuse one of them (a repeated name), or a record name one not here, the push is undone to its
    /// savepoint and decided again one write at a time, so the refused operation alone is refused.
    public func applyPush(_ request: PushRequest, from pusher: Pusher = .hubItself) throws -> PushResponse {
        // What this push changed here, for the change feed: an operation seen before changed nothing new.
        var changed: [RecordChange] = []
        SharedRead.current(for: pool)?.noteWrite("a push")
        let response = try pool.write { db in
            let decided = try (DeferredHubRows.canDefer(request) ? Self.decideDeferring(db, request, pusher) : nil)
                ?? Self.decide(db, request, pusher, deferred: nil)
            changed = decided.changed
            return decided.response
        }
        changeFeed.publish(CommittedChanges(origin: .pushed, changes: changed, queuedForHub: false))
        return response
    }

    /// Nil when the database refused a record the push wrote: nothing of it is left.
    private static func decideDeferring(_ db: Database, _ request: PushRequest, _ pusher: Pusher) throws -> (response: PushResponse, changed: [RecordChange])? {
        var decided: (response: PushResponse, changed: [RecordChange])?
        do {
            try db.inSavepoint {
                decided = try decide(db, request, pusher, deferred: DeferredHubRows())
                return .commit
            }
        } catch let error as DatabaseError {
            // A failure that ended the transaction (a full disk) is no refusal: nothing can be decided again.
            guard db.isInsideTransaction else { throw error }
            return nil  // refused when the records were written: which operation's, only the one-by-one way can tell
        } catch is DecideOneByOne {
            return nil
        }
        return decided
    }

    private static func decide(_ db: Database, _ request: PushRequest, _ pusher: Pusher,
                               deferred: DeferredHubRows?) throws -> (response: PushResponse, changed: [RecordChange]) {
        let forwardsUpstream = try Self.isLinked(db)
        var changed: [RecordChange] = []
        var results: [SyncResult] = []
        for operation in request.operations {
            if let earlier = try Self.earlierResult(db, operation.operationId) {
                results.append(earlier)
                continue
            }
            let records = SQLiteHubRecords(db: db, forwardsUpstream: forwardsUpstream, deferred: deferred)
            let result = try HubDecider(records: records, pusher: pusher).apply(operation)
            results.append(result)
            if result.outcome == .applied || result.outcome == .merged { changed.append(operation.pushedChange) }
            // A rejection changed nothing, so it is not remembered: a retry after the cause is fixed is judged anew.
            guard result.outcome != .rejected else { continue }
            try db.cachedStatement(sql: "INSERT INTO applied_operations (operation_id, result, applied_at) VALUES (?, ?, ?)")
                .execute(arguments: [operation.operationId.databaseText,
                                     String(decoding: result.jsonBytes, as: UTF8.self), Date().storedText])
        }
        try deferred?.write(db)
        changed += try Self.reconcileAddressPeriods(db, touchedBy: request.operations, forwardsUpstream: forwardsUpstream)
        try SyncedDuplicateSchema.queue(db, newcomers: changed.filter { $0.kind == Participant.kind.entity && $0.operation == .create }.map(\.id))
        return (PushResponse(results: results), changed)
    }

    /// Pushes from several nodes can leave a participant two open address periods (each node moved them offline);
    /// the participants this push touched are set right in the same transaction, and nodes pull the result.
    private static func reconcileAddressPeriods(_ db: Database, touchedBy operations: [SyncOperation],
                                                forwardsUpstream: Bool) throws -> [RecordChange] {
        var participants = Set<UUID>()
        for operation in operations {
            if operation.entity == Participant.kind.entity { participants.insert(operation.entityId) }
            if let survivor = operation.mergeSurvivor { participants.insert(survivor) }
            if operation.entity == PeriodRow.addressKind.entity,
               let owner = try String.fetchOne(db.cachedStatement(sql: """
                   SELECT \(PeriodRow.Owner.participant.column) FROM \(PeriodRow.addressKind.table) WHERE id = ?
                   """), arguments: [operation.entityId.databaseText]).flatMap(UUID.init(uuidString:)) {
                participants.insert(owner)
            }
        }
        let unsettled = try participantsWithUnsettledAddresses(db, among: participants)
        guard !unsettled.isEmpty else { return [] }
        let recorder = ChangeRecorder(db: db, author: Actor.system("hub").recorded, queuesForHub: forwardsUpstream)
        let records = RecordTransaction(db: db, changes: recorder)
        for participant in unsettled.sorted(by: { $0.uuidString < $1.uuidString }) { try records.reconcileAddressPeriods(of: participant) }
        return recorder.committed
    }

    /// The participants among `ids` whose open address periods are not exactly one at their home venue: the only ones
    /// `reconcileAddressPeriods(of:)` would change. Asked in one query, not two per participant pushed.
    private static func participantsWithUnsettledAddresses(_ db: Database, among ids: Set<UUID>) throws -> [UUID] {
        guard !ids.isEmpty else { return [] }
        let periods = PeriodRow.Owner.participant.declaration, owner = PeriodRow.Owner.participant.column
        return try String.fetchAll(db.cachedStatement(sql: """
            SELECT h.\(owner) FROM \(PeriodRow.addressKind.table) h JOIN \(Participant.kind.table) p ON p.id = h.\(owner)
            WHERE h.\(owner) IN (\(IdentifierList.values)) AND h.\(periods.column(\.effectiveTo)) IS NULL
            GROUP BY h.\(owner) HAVING COUNT(*) > 1 OR MAX(h.\(periods.column(\.venueId)) IS NOT p.\(Participant.homeVenueColumn))
            """), arguments: [IdentifierList.json(ids.map(\.databaseText))]).compactMap(UUID.init(uuidString:))
    }

    /// The change log after `cursor`: each changed record once, with its state now, in the order of its latest change.
    public func changes(after cursor: Int64, limit: Int) throws -> ChangePage {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT seq, entity, entity_id FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?",
                                        arguments: [cursor, limit])
            var states: [String: [UUID: RecordState]] = [:]
            for (entity, group) in Dictionary(grouping: rows, by: { $0["entity"] as String }) {
                guard let table = RecordKind.named(entity) else { continue }
                states[entity] = try RecordStates.read(db, table, ids: group.map { $0.uuid("entity_id") })
            }
            let entries = rows.map { row -> ChangeLogEntry in
                let entity: String = row["entity"]
                let id = row.uuid("entity_id")
                return ChangeLogEntry(seq: row["seq"], state: states[entity]?[id] ?? .absent(entity, id))
            }
            return ChangePage(entries, after: cursor, latest: try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change_log") ?? 0)
        }
    }

    /// The newest change log sequence number (0 when the log is empty): a long poll waits for it to pass a cursor.
    public func latestChangeSequence() throws -> Int64 {
        try read { try Int64.fetchOne($0, sql: "SELECT MAX(seq) FROM change_log") ?? 0 }
    }

    private static func earlierResult(_ db: Database, _ operationId: UUID) throws -> SyncResult? {
        guard let text = try String.fetchOne(db.cachedStatement(sql: "SELECT result FROM applied_operations WHERE operation_id = ?"),
                                             arguments: [operationId.databaseText]) else { return nil }
        return try JSONDecoder().decode(SyncResult.self, from: Data(text.utf8))
    }
}

/// The SQLite hub's records, for `HubDecider`: the schema's foreign keys and unique indexes enforce the kinds'
/// references and unique keys, and the tables' triggers keep the change log.
private struct SQLiteHubRecords: HubRecords {
    let db: Database
    /// This hub is itself linked to a hub, so accepted operations queue for it too.
    let forwardsUpstream: Bool
    /// The push's records kept to be written together, when they are.
    let deferred: DeferredHubRows?
    /// Made for one operation (`decide`): whether its record was written (or kept to be written).
    private let progress = OperationProgress()

    private final class OperationProgress {
        var storedRecord = false
    }

    init(db: Database, forwardsUpstream: Bool, deferred: DeferredHubRows?) {
        (self.db, self.forwardsUpstream, self.deferred) = (db, forwardsUpstream, deferred)
    }

    /// A record the push wrote and still keeps is written first, so it reads exactly as the table stores it (SQLite
    /// turns a number into text in a text column, and the other way round), as it would one write at a time. Only a
    /// record named twice in one push, or an area's parent, is read back like this.
    func state(_ kind: RecordKind, _ id: UUID) throws -> RecordState {
        if let deferred, deferred.holds(kind, id) {
            do { try deferred.write(db) } catch is DatabaseError { throw DecideOneByOne() }
        }
        return try RecordStates.read(db, kind, id: id)
    }

    func wasEverWritten(_ kind: RecordKind, _ id: UUID) throws -> Bool {
        try deferred?.holds(kind, id) == true || RecordStates.wasEverWritten(db, kind, id: id)
    }

    func referencing(_ kind: RecordKind, column: String, id: UUID) throws -> [RecordState] {
        // Kept rows of other kinds cannot answer this search, and writing them now would undo the batching: a merge
        // check runs for every assignment created.
        if let deferred, deferred.keepsAny(kind) {
            do { try deferred.write(db) } catch is DatabaseError { throw DecideOneByOne() }
        }
        let ids = try String.fetchAll(db, sql: "SELECT id FROM \(kind.table) WHERE \(column) = ? ORDER BY id", arguments: [id.databaseText])
        let states = try RecordStates.read(db, kind, ids: ids.compactMap(UUID.init(uuidString:)))
        return ids.compactMap { UUID(uuidString: $0).flatMap { states[$0] } }
    }

    func account(_ id: UUID) throws -> (role: UserRole, disabled: Bool)? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT role, is_disabled FROM users WHERE id = ?"),
                                         arguments: [id.databaseText])
        else { return nil }
        return (UserRole(rawValue: row["role"]) ?? .readOnly, row["is_disabled"])
    }

    /// Writes the record; a hub that is itself linked upstream passes the operation on, under the same id.
    func store(_ state: RecordState, _ kind: RecordKind, by operation: SyncOperation, fields: [String: JSONValue]) throws {
        if let deferred {
            try requireReferences(of: state, kind)
            deferred.keep(state, kind)
        } else {
            try RecordStates.write(db, kind, state)
        }
        progress.storedRecord = true
        let change = Change(operation: operation.operation, entity: operation.entity, entityId: operation.entityId, fields: fields,
                            baseVersion: operation.baseVersion)
        try ChangeRecorder(db: db, author: operation.author, queuesForHub: forwardsUpstream, origin: .pushed)
            .record(change, before: operation.before, operationId: operation.operationId)
    }

    /// The database checks a deferred record's references only when the batch is written, after every operation was
    /// answered, and on its own order of kinds: a record that names one not here (yet) sends the push the one-by-one
    /// way, where the database judges it as it is written, so both ways give the same answers.
    private func requireReferences(of state: RecordState, _ kind: RecordKind) throws {
        for reference in kind.references {
            guard let value = state.fields[reference.column], value != .null else { continue }
            guard case .string(let text) = value, let id = UUID(uuidString: text), id.databaseText == text,
                  let referenced = RecordKind.named(reference.entity),
                  try deferred?.holds(referenced, id) == true || db.recordExists(id, in: referenced.table)
            else { throw DecideOneByOne() }
        }
    }

    /// Without a savepoint of its own. An operation writes its record with one statement before anything else
    /// (`store`; kept to be written, when the push is deferred), and a statement SQLite refuses (a broken reference, a
    /// repeated name) is undone whole, so a refused operation has written nothing. A savepoint per operation would be
    /// prepared each time and make the search index write its pending entries each time. Should anything fail after a
    /// write, the operation cannot be undone alone: the whole push is, and the node sends it again.
    func atomically(_ body: () throws -> Bool) throws {
        let keeps: Bool
        do {
            keeps = try body()
        } catch {
            guard !progress.storedRecord else { throw PartlyWrittenOperation(cause: error) }
            throw error
        }
        guard keeps || !progress.storedRecord else { throw PartlyWrittenOperation(cause: nil) }
    }

    func refusal(for error: Error, _ kind: RecordKind) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        let message = error.message ?? ""
        switch error.extendedResultCode {
        // A RESTRICT foreign key reports the generic constraint code: its message tells it apart.
        case .SQLITE_CONSTRAINT_FOREIGNKEY, _ where message.hasPrefix("FOREIGN KEY constraint failed"):
            return ConstraintRefusal.reference.message(kind)
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: return ConstraintRefusal.unique.message(kind)
        case .SQLITE_CONSTRAINT_NOTNULL:
            // "NOT NULL constraint failed: table.column"
            return ConstraintRefusal.missing(column: String(message.split(separator: ".").last ?? "")).message(kind)
        default: return "The hub refused a value of this \(kind.noun): \(error.message ?? "a constraint failed")."
        }
    }
}

/// A deferred push met a record it cannot judge without writing it: the push is decided again one write at a time.
struct DecideOneByOne: Error {}

/// An operation that failed after it had written: the push it came in is undone whole.
struct PartlyWrittenOperation: Error, CustomStringConvertible {
    let cause: Error?

    var description: String {
        "A pushed operation failed after it had written (\(cause.map { String(describing: $0) } ?? "it was refused after writing")); the push is undone."
    }
}

extension SyncOperation {
    /// The change an applied operation made here, by its author.
    var pushedChange: RecordChange {
        RecordChange(kind: entity, id: entityId, operation: operation, author: author, at: Date())
    }
}
