import Domain
import Foundation
import GRDB

/// The hub side of sync: applying pushed operations once each, in order, and paging through the change log.
extension AppDatabase {
    /// The kinds of record that sync (the `entity` of an operation or a change).
    public static var syncedEntities: [String] { RecordKind.all.map(\.entity) }

    /// Applies a node's batch in order. Each operation runs in its own savepoint, so one rejected operation
    /// leaves the others applied; an operation id seen before gets the answer it got the first time.
    public func applyPush(_ request: PushRequest) throws -> PushResponse {
        // What this push changed here, for the change feed: an operation seen before changed nothing new.
        var changed: [RecordChange] = []
        let response = try pool.write { db in
            let forwardsUpstream = try Self.isLinked(db)
            var results: [SyncResult] = []
            for operation in request.operations {
                if let earlier = try Self.earlierResult(db, operation.operationId) {
                    results.append(earlier)
                    continue
                }
                let result = try HubApplier(db: db, forwardsUpstream: forwardsUpstream).apply(operation)
                results.append(result)
                if result.outcome == .applied || result.outcome == .merged { changed.append(operation.pushedChange) }
                // A rejection changed nothing, so it is not remembered: a retry after the cause is fixed is judged anew.
                guard result.outcome != .rejected else { continue }
                try db.cachedStatement(sql: "INSERT INTO applied_operations (operation_id, result, applied_at) VALUES (?, ?, ?)")
                    .execute(arguments: [operation.operationId.databaseText,
                                           String(decoding: result.jsonBytes, as: UTF8.self), Date().storedText])
            }
            changed += try Self.reconcileAddressPeriods(db, touchedBy: request.operations, forwardsUpstream: forwardsUpstream)
            try SyncedDuplicateSchema.queue(db, newcomers: changed.filter { $0.kind == Participant.kind.entity && $0.operation == .create }.map(\.id))
            return PushResponse(results: results)
        }
        changeFeed.publish(CommittedChanges(origin: .pushed, changes: changed, queuedForHub: false))
        return response
    }

    /// Pushes from several nodes can leave a participant two open address periods (each node moved them offline);
    /// the participants this push touched are set right in the same transaction, and nodes pull the result.
    private static func reconcileAddressPeriods(_ db: Database, touchedBy operations: [SyncOperation],
                                                forwardsUpstream: Bool) throws -> [RecordChange] {
        var participants = Set<UUID>()
        for operation in operations {
            if operation.entity == Participant.kind.entity { participants.insert(operation.entityId) }
            if operation.entity == PeriodRow.addressKind.entity,
               let owner = try String.fetchOne(db, sql: "SELECT participant_id FROM participant_address_history WHERE id = ?",
                                               arguments: [operation.entityId.databaseText]).flatMap(UUID.init(uuidString:)) {
                participants.insert(owner)
            }
        }
        guard !participants.isEmpty else { return [] }
        let recorder = ChangeRecorder(db: db, author: Actor.system("hub").recorded, queuesForHub: forwardsUpstream)
        let records = RecordTransaction(db: db, changes: recorder)
        for participant in participants.sorted(by: { $0.uuidString < $1.uuidString }) { try records.reconcileAddressPeriods(of: participant) }
        return recorder.committed
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
                let state = states[entity]?[id] ?? RecordState(entity: entity, entityId: id, deleted: true, version: 0, fields: [:])
                return ChangeLogEntry(seq: row["seq"], state: state)
            }
            let next = entries.last?.seq ?? cursor
            // An upper bound (renumbering leaves gaps) read in constant time; counting would scan the rest of the log per page.
            let last = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM change_log") ?? 0
            let remaining = Int(max(0, last - next))
            return ChangePage(changes: entries, nextCursor: next, hasMore: last > next, remaining: remaining)
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

/// Decides and applies one pushed operation against the hub's current record.
private struct HubApplier {
    let db: Database
    /// This hub is itself linked to a hub, so accepted operations queue for it too.
    let forwardsUpstream: Bool

    func apply(_ operation: SyncOperation) throws -> SyncResult {
        guard let table = RecordKind.named(operation.entity) else {
            return rejected(operation, "Fieldbook does not know records of kind “\(operation.entity)”.", current: nil)
        }
        let current = try RecordStates.read(db, table, id: operation.entityId)
        if let refusal = try permissionRefusal(operation, table, current) { return rejected(operation, refusal, current: current) }
        if table.appendOnly, let answer = appendOnlyAnswer(operation, table, current) { return answer }
        do {
            var result: SyncResult?
            try db.inSavepoint {
                let decided = try decide(operation, table, current)
                result = decided
                return decided.outcome == .rejected ? .rollback : .commit
            }
            return result!
        } catch let error as ValidationError {
            return rejected(operation, error.fieldErrors.map(\.message).joined(separator: "; "), current: current)
        } catch let error as DatabaseError {
            return rejected(operation, Self.explain(error, table), current: current)
        }
    }

    private func decide(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> SyncResult {
        switch operation.operation {
        case .create where current.deleted: try create(operation, table)
        case .create, .update: try update(operation, table, current)
        case .delete: try delete(operation, table, current)
        }
    }

    private func create(_ operation: SyncOperation, _ table: RecordKind) throws -> SyncResult {
        var fields = operation.fields.filter { table.columns.contains($0.key) }
        for column in table.columns where fields[column] == nil { fields[column] = .null }
        try table.check(db, operation.entityId, fields)
        let now = Date().storedText
        if table.metaColumns.contains("created_at") {
            fields["created_at"] = .string(operation.createdAt.storedText)
            fields["updated_at"] = .string(now)
        }
        if table.metaColumns.contains("is_predefined") { fields["is_predefined"] = .int(0) }
        let state = RecordState(entity: table.entity, entityId: operation.entityId, deleted: false, version: 1, fields: fields)
        try RecordStates.write(db, table, state)
        try forward(operation, fields: operation.fields)
        return SyncResult(operationId: operation.operationId, outcome: .applied, current: state)
    }

    private func update(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> SyncResult {
        if current.deleted {
            guard try RecordStates.wasEverWritten(db, table, id: operation.entityId) else {
                return rejected(operation, "This \(table.noun) does not exist on the hub; its creation may have failed.", current: current)
            }
            let losing = operation.fields.map { LosingField(name: $0.key, mine: $0.value, theirs: .null) }.sorted { $0.name < $1.name }
            return SyncResult(operationId: operation.operationId, outcome: .conflict, reason: "deleted", losingFields: losing, current: current)
        }
        var winning: [String: JSONValue] = [:]
        var losing: [LosingField] = []
        for (name, mine) in operation.fields where table.columns.contains(name) {
            let theirs = current.fields[name] ?? .null
            if theirs.storesSame(as: mine) { continue }
            let before = operation.before[name]
            if operation.operation == .update, before == nil || before!.storesSame(as: theirs) {
                winning[name] = mine
            } else {
                losing.append(LosingField(name: name, mine: mine, theirs: theirs))
            }
        }
        var state = current
        if !winning.isEmpty {
            state = try RecordStates.writeEdit(db, table, current, winning)
            try forward(operation, fields: winning)
        }
        let outcome: SyncOutcome = !losing.isEmpty ? .conflict : (current.version == operation.baseVersion ? .applied : .merged)
        return SyncResult(operationId: operation.operationId, outcome: outcome, reason: losing.isEmpty ? nil : "edited",
                          losingFields: losing.sorted { $0.name < $1.name }, current: state)
    }

    private func delete(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> SyncResult {
        if current.deleted { return SyncResult(operationId: operation.operationId, outcome: .applied, current: current) }
        if current.version > operation.baseVersion {
            return SyncResult(operationId: operation.operationId, outcome: .conflict, reason: "changed", current: current)
        }
        var gone = current
        (gone.deleted, gone.fields) = (true, [:])
        try RecordStates.write(db, table, gone)
        try forward(operation, fields: [:])
        return SyncResult(operationId: operation.operationId, outcome: .applied, current: gone)
    }

    /// Rows of an append-only kind are never changed or removed; a create of one already here (sent again under a new
    /// operation id) changes nothing.
    private func appendOnlyAnswer(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) -> SyncResult? {
        switch operation.operation {
        case .create where current.deleted: nil
        case .create: SyncResult(operationId: operation.operationId, outcome: .applied, current: current)
        case .update, .delete:
            rejected(operation, "A \(table.label.one) is never changed or deleted once written; add a new one instead.", current: current)
        }
    }

    /// A hub that is itself linked upstream passes accepted operations on, under the same id.
    private func forward(_ operation: SyncOperation, fields: [String: JSONValue]) throws {
        let change = Change(operation: operation.operation, entity: operation.entity, entityId: operation.entityId, fields: fields,
                            baseVersion: operation.baseVersion)
        try ChangeRecorder(db: db, author: operation.author, queuesForHub: forwardsUpstream, origin: .pushed)
            .record(change, before: operation.before, operationId: operation.operationId)
    }

    /// Operations keep their author's rights: a user this hub knows must still hold the role the change needs, and a
    /// row that belongs to one user is changed only by them (or by Fieldbook itself, whose author is not a user id).
    private func permissionRefusal(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> String? {
        guard let authorId = UUID(uuidString: operation.author) else { return nil }
        if let ownerColumn = table.ownerColumn {
            let owner = current.deleted ? operation.fields[ownerColumn] : current.fields[ownerColumn]
            guard owner.map({ UUID(uuidString: [ownerColumn: $0].text(ownerColumn)) == authorId }) == true else {
                return "Only the person a \(table.label.one) belongs to may change it."
            }
        }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT role, is_disabled FROM users WHERE id = ?"),
                                         arguments: [authorId.databaseText])
        else { return nil }
        let role = UserRole(rawValue: row["role"]) ?? .readOnly
        let allowed = switch table.requiredRole {
        case .administrator: role.canAdminister
        case .editor: role.canEditRecords
        case .readOnly: true
        }
        if row["is_disabled"] as Bool { return "The author's account is disabled on the hub." }
        return allowed ? nil : "The author's role on the hub (\(role.label)) may not change this kind of record."
    }

    private func rejected(_ operation: SyncOperation, _ reason: String, current: RecordState?) -> SyncResult {
        let state = current ?? RecordState(entity: operation.entity, entityId: operation.entityId, deleted: true, version: 0, fields: [:])
        return SyncResult(operationId: operation.operationId, outcome: .rejected, reason: reason, current: state)
    }

    private static func explain(_ error: DatabaseError, _ table: RecordKind) -> String {
        let kind = table.noun
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return "This \(kind) refers to a record the hub does not have, or other records on the hub still use it."
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            return "Another \(kind) on the hub already has the same \(kind == "user" ? "email" : "name or combination")."
        default:
            return "The hub refused a value of this \(kind): \(error.message ?? "a constraint failed")."
        }
    }
}

extension SyncOperation {
    /// The change an applied operation made here, by its author.
    var pushedChange: RecordChange {
        RecordChange(kind: entity, id: entityId, operation: operation, author: author, at: Date())
    }
}
