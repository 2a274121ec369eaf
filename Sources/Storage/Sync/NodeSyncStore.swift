import Domain
import Foundation
import Records
import GRDB

/// How a pushed batch went.
public struct PushTally: Sendable, Equatable {
    public var applied = 0
    public var merged = 0
    public var conflicts = 0
    public var rejected = 0

    public init() {}
}

/// The node side of sync: taking the hub's answers and its changes into the local database.
extension AppDatabase {
    /// Settles pushed entries with the hub's answers in one transaction: accepted ones leave the queue, lost edits are
    /// kept as conflicts, rejected ones are set aside; each record takes the hub's values unless more local edits of it wait.
    public func settlePush(_ entries: [OutboxEntry], results: [SyncResult]) throws -> PushTally {
        let tally = try writeRemote { db in
            var tally = PushTally()
            let answers = Dictionary(results.map { ($0.operationId, $0) }) { first, _ in first }
            var states: [RecordState] = []
            for entry in entries {
                guard let result = answers[entry.operationId] else { continue }
                try Self.settle(db, entry, result, &tally)
                states.append(result.current)
            }
            try Self.takeHubStates(db, states)
            return tally
        }
        if tally.conflicts + tally.rejected > 0 { changeFeed.publishSyncNotices() }
        return tally
    }

    /// Counts a failed attempt at the head of the queue; after `maxAttempts` the entry is set aside so the rest flows.
    /// Returns true when it was set aside.
    @discardableResult
    public func recordFailedAttempt(operationId: UUID, error: String, maxAttempts: Int) throws -> Bool {
        let setAside = try writeLocal { db in
            try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE operation_id = ?",
                           arguments: [error, operationId.databaseText])
            let attempts = try Int.fetchOne(db, sql: "SELECT attempts FROM outbox WHERE operation_id = ?",
                                            arguments: [operationId.databaseText]) ?? 0
            guard attempts >= maxAttempts else { return false }
            try db.execute(sql: "UPDATE outbox SET state = 'failed' WHERE operation_id = ?", arguments: [operationId.databaseText])
            let author = try String.fetchOne(db, sql: "SELECT author FROM outbox WHERE operation_id = ?", arguments: [operationId.databaseText])
            try SyncNoticeKind.note(db, .setAside, author: author ?? "")
            return true
        }
        if setAside { changeFeed.publishSyncNotices() }
        return setAside
    }

    /// Applies a page of the hub's change log and saves the cursor in the same transaction, so a crash resumes after
    /// the last page applied. Records with local edits still waiting keep them (the push settles those).
    @discardableResult
    public func applyPulledPage(_ page: ChangePage) throws -> Int {
        var taken: [RecordChange] = []
        let applied = try writeRemote { db in
            // A first sync copies the hub into an empty Fieldbook: nothing here for newcomers to duplicate.
            let checksNewcomers = try Self.hasCopiedHub(db)
            if !checksNewcomers, page.hasMore, try Self.pullCursor(db) == 0 { try DeferredIndexes.dropUntilRestored(db) }
            var newcomers: [UUID] = []
            let states = try Self.takeHubStates(db, page.changes.map(\.state)) { table, state in
                if checksNewcomers, table.entity == Participant.kind.entity, !state.deleted,
                   try !db.recordExists(state.entityId, in: table.table) {
                    newcomers.append(state.entityId)
                }
            }
            taken = states.map(\.pulledChange)
            try SyncedDuplicateSchema.queue(db, newcomers: newcomers)
            try Self.putSettings(db, ["sync.cursor": String(page.nextCursor)])
            if !page.hasMore {
                try Self.putSettings(db, [Self.copiedHubKey: "1"])
                try DeferredIndexes.restore(db)
            }
            return states.count
        }
        changeFeed.publish(CommittedChanges(origin: .pulled, changes: taken, queuedForHub: false))
        return applied
    }

    /// Builds the indexes a first sync dropped, if it ended part way (`DeferredIndexes`); nothing to do otherwise.
    public func restoreDeferredIndexes() throws {
        try writeLocal(DeferredIndexes.restore)
    }

    /// Puts a failed operation back at its place in the queue.
    public func retryFailedOperation(_ operationId: UUID) throws {
        try writeLocal { db in
            try db.execute(sql: "UPDATE outbox SET state = 'pending', attempts = 0, last_error = NULL WHERE operation_id = ? AND state = 'failed'",
                           arguments: [operationId.databaseText])
            guard db.changesCount == 1 else { throw DomainError.notFound(entity: "failed operation") }
        }
    }

    /// Drops a failed operation for good (the record already shows the hub's values).
    public func discardFailedOperation(_ operationId: UUID) throws {
        try writeLocal { db in
            try db.execute(sql: "DELETE FROM outbox WHERE operation_id = ? AND state = 'failed'", arguments: [operationId.databaseText])
            guard db.changesCount == 1 else { throw DomainError.notFound(entity: "failed operation") }
        }
    }

    /// Writes with foreign keys unchecked: the hub's change log lists each record once, in the order of its latest
    /// change, so a child can arrive before a parent renamed later. Every page leaves the hub's consistent state.
    func writeRemote<T>(_ body: (Database) throws -> T) throws -> T {
        SharedRead.current(for: pool)?.noteWrite("a write of pulled changes")
        return try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    private static func settle(_ db: Database, _ entry: OutboxEntry, _ result: SyncResult, _ tally: inout PushTally) throws {
        let id = entry.operationId.databaseText
        switch result.outcome {
        case .applied, .merged:
            result.outcome == .applied ? (tally.applied += 1) : (tally.merged += 1)
            try db.cachedStatement(sql: "DELETE FROM outbox WHERE operation_id = ?").execute(arguments: [id])
        case .conflict where result.reason == "edited" && result.losingCredentialsOnly:
            // A hub that still puts credentials in conflict: they are not people's edits to judge (`credentialColumns`).
            tally.merged += 1
            try db.cachedStatement(sql: "DELETE FROM outbox WHERE operation_id = ?").execute(arguments: [id])
        case .conflict:
            tally.conflicts += 1
            try db.execute(sql: "DELETE FROM outbox WHERE operation_id = ?", arguments: [id])
            try recordConflict(db, entry, result)
        case .rejected:
            tally.rejected += 1
            try db.execute(sql: "UPDATE outbox SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE operation_id = ?",
                           arguments: [result.reason ?? "Refused by the hub", id])
            try SyncNoticeKind.note(db, .setAside, entity: entry.change.entity, entityId: entry.change.entityId, author: entry.author)
        }
    }

    /// The hub's states (a pulled page, the answers to a push) replace the local records, each record once with its
    /// last state here; a record with local edits still waiting keeps them (the push settles those). `taking` sees
    /// each state about to be taken. Deletions and accounts are written one at a time, then the other records kind by
    /// kind, each kind in one statement (`RowWriter.putAll`): a deleted record may have left a name free, and a
    /// statement per record would journal the pages it touches once more for every record.
    @discardableResult
    private static func takeHubStates(_ db: Database, _ states: [RecordState],
                                      taking: (RecordKind, RecordState) throws -> Void = { _, _ in }) throws -> [RecordState] {
        // A first sync usually has nothing queued: then no state needs the per-record check.
        let anyPending = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'pending')") ?? false
        var upserts: [String: [StagedRow]] = [:]
        var taken: [RecordState] = []
        // Pages fetched one after another can list a record twice when it changed on the hub in between, and a push
        // answers every operation on a record: its last state is the one taken.
        for state in states.lastOfEach(by: { RecordKey($0.entity, $0.entityId) }) {
            guard let table = RecordKind.named(state.entity) else { continue }
            if anyPending, try hasPendingEdits(db, state) { continue }
            try taking(table, state)
            if state.deleted || takenOneByOne(table) {
                try takeHubState(db, table, state)
            } else {
                upserts[table.entity, default: []].append(RecordStates.stagedRow(table, state))
            }
            taken.append(state)
        }
        try RowWriter.putAll(db, byKind: upserts)
        try ParticipantMergeRow.followHere(db, taken)
        return taken
    }

    private static func hasPendingEdits(_ db: Database, _ state: RecordState) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM outbox WHERE entity = ? AND entity_id = ? AND state = 'pending')"),
                          arguments: [state.entity, state.entityId.databaseText]) ?? false
    }

    /// Accounts are taken one at a time: taking one can end sessions and give way to another account (`takeHubState`).
    private static func takenOneByOne(_ table: RecordKind) -> Bool { table.entity == UserRow.kind.entity }

    /// The hub's record replaces the local one. A local account with the same email under another id gives way to
    /// the hub's account (its sessions end; the person signs in with the hub's password).
    private static func takeHubState(_ db: Database, _ table: RecordKind, _ state: RecordState) throws {
        if table.entity == "user", !state.deleted, let email = state.fields["email"] {
            let others = try String.fetchAll(db, sql: "SELECT id FROM users WHERE email = ? AND id <> ?",
                                             arguments: [email.databaseValue, state.entityId.databaseText])
            for other in others.compactMap(UUID.init(uuidString:)) {
                try db.execute(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [other.databaseText])
                try db.execute(sql: "DELETE FROM outbox WHERE entity = 'user' AND entity_id = ?", arguments: [other.databaseText])
                try RowWriter.delete(db, table, id: other)
            }
        }
        if table.entity == "user", state.deleted || state.fields["is_disabled"]?.isTrue == true {
            try db.execute(sql: "DELETE FROM sessions WHERE user_id = ?", arguments: [state.entityId.databaseText])
        }
        try RecordStates.write(db, table, state)
    }

    private static func recordConflict(_ db: Database, _ entry: OutboxEntry, _ result: SyncResult) throws {
        let kind = switch result.reason {
        case "deleted": "deleted"
        case "changed": "delete"
        default: "edit"
        }
        let credentials = RecordKind.named(entry.change.entity)?.credentialColumns ?? []
        let losing = result.losingFields.filter { !credentials.contains($0.name) }
        let fields = String(decoding: try JSONEncoder.sortedKeys.encode(losing), as: UTF8.self)
        let conflictId = UUID()
        try db.execute(sql: """
            INSERT OR IGNORE INTO sync_conflicts (id, operation_id, entity, entity_id, kind, fields, author, edited_at, detected_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [conflictId.databaseText, entry.operationId.databaseText, entry.change.entity, entry.change.entityId.databaseText,
                             kind, fields, entry.author, entry.createdAt.storedText, Date().storedText])
        guard db.changesCount == 1 else { return }
        try SyncNoticeKind.note(db, .conflictLost, entity: entry.change.entity, entityId: entry.change.entityId, author: entry.author,
                                detail: conflictId.databaseText)
    }
}

/// A record named by its kind and id.
private struct RecordKey: Hashable {
    let entity: String
    let id: UUID

    init(_ entity: String, _ id: UUID) { (self.entity, self.id) = (entity, id) }
}

extension SyncResult {
    /// True when every field that lost is a credential of the record's kind.
    var losingCredentialsOnly: Bool {
        let credentials = RecordKind.named(current.entity)?.credentialColumns ?? []
        return !losingFields.isEmpty && losingFields.allSatisfy { credentials.contains($0.name) }
    }
}

extension RecordState {
    /// The change a pulled state makes here. The change log tells states, not operations: a record at version 1 is
    /// taken as new, a later one as edited.
    var pulledChange: RecordChange {
        let operation: ChangeOperation = deleted ? .delete : version <= 1 ? .create : .update
        return RecordChange(kind: entity, id: entityId, operation: operation, author: "hub", at: Date())
    }
}
