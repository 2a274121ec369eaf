import Domain
import Foundation
import Records

/// What deciding a pushed operation needs of a hub's store. The SQLite hub (`AppDatabase.applyPush`) and the
/// PostgreSQL hub each provide it, so both judge every operation by the one set of rules below.
public protocol HubRecords: RecordLookup {
    /// The record as the hub holds it now (`deleted` when it does not exist).
    func state(_ kind: RecordKind, _ id: UUID) throws -> RecordState
    /// True when the record was ever written here: a deleted record leaves its trace.
    func wasEverWritten(_ kind: RecordKind, _ id: UUID) throws -> Bool
    /// The live records of `kind` whose `column` names `id` (what still refers to a merged-away participant).
    func referencing(_ kind: RecordKind, column: String, id: UUID) throws -> [RecordState]
    /// The role of the user with this id and whether their account is disabled, when this hub knows them.
    func account(_ id: UUID) throws -> (role: UserRole, disabled: Bool)?
    /// Makes the stored record equal `state`, enforcing the kind's references and unique keys, and logs the change
    /// `operation` made (`fields`: the values it set).
    func store(_ state: RecordState, _ kind: RecordKind, by operation: SyncOperation, fields: [String: JSONValue]) throws
    /// Runs `body` so that its writes are undone when it answers false or throws.
    func atomically(_ body: () throws -> Bool) throws
    /// The refusal a store error stands for (a broken reference, a repeated name), or nil for any other error.
    func refusal(for error: Error, _ kind: RecordKind) -> String?
}

extension HubRecords {
    public func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]? {
        let state = try state(kind, id)
        return state.deleted ? nil : state.fields
    }
}

/// A reference or unique key the store refused, in the words a node shows beside the operation.
public enum ConstraintRefusal: Error, Sendable {
    case reference, unique
    /// A required (NOT NULL) column without a value.
    case missing(column: String)

    public func message(_ kind: RecordKind) -> String {
        switch self {
        case .missing(let column): "This \(kind.noun) needs a value for \(column)."
        case .reference: "This \(kind.noun) refers to a record the hub does not have, or other records on the hub still use it."
        case .unique: "Another \(kind.noun) on the hub already has the same \(kind.noun == "user" ? "email" : "name or combination")."
        }
    }
}

/// Who hands a push to the hub: a node, signed in with an account of the hub, or the hub itself (an account made with
/// its command line, the notices it writes).
public enum Pusher: Sendable, Equatable {
    case hubItself
    case node(signedInAs: UUID)
}

extension PushRequest {
    /// A deletion's references are followed as it happens, and a merge moves and deletes what names the merged-away
    /// record (`HubDecider.completeMerge`): a push holding either is decided one write at a time, on both kinds of hub.
    public var holdsDeletionsOrMerges: Bool {
        operations.contains { $0.operation == .delete || $0.mergeSurvivor != nil }
    }
}

/// Decides and applies one pushed operation against the hub's current record: refusals for rights and checks,
/// conflicts field by field against the values the edit was made on, and merges of edits to different fields.
public struct HubDecider<Records: HubRecords> {
    let records: Records
    let pusher: Pusher

    public init(records: Records, pusher: Pusher) { (self.records, self.pusher) = (records, pusher) }

    public func apply(_ pushed: SyncOperation) throws -> SyncResult {
        guard let table = RecordKind.named(pushed.entity) else {
            return rejected(pushed, "Fieldbook does not know records of kind “\(pushed.entity)”.", current: nil)
        }
        let operation: SyncOperation
        switch try followingMerges(pushed, table) {
        case .answered(let result): return result
        case .operation(let followed): operation = followed
        }
        let current = try records.state(table, operation.entityId)
        if let refusal = try permissionRefusal(operation, table, current) { return rejected(operation, refusal, current: current) }
        if table.appendOnly, let answer = appendOnlyAnswer(operation, table, current) { return answer }
        do {
            var result: SyncResult?
            try records.atomically {
                let decided = try decide(operation, table, current)
                result = decided
                return decided.outcome != .rejected
            }
            return result!
        } catch let error as ValidationError {
            return rejected(operation, error.fieldErrors.map(\.message).joined(separator: "; "), current: current)
        } catch {
            guard let refusal = records.refusal(for: error, table) else { throw error }
            return rejected(operation, refusal, current: current)
        }
    }

    private func decide(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> SyncResult {
        switch operation.operation {
        case .create where current.deleted:
            let created = try create(operation, table)
            if table.entity == ParticipantMerges.entity { try completeMerge(created.current, by: operation) }
            return created
        case .create, .update: return try update(operation, table, current)
        case .delete: return try delete(operation, table, current)
        }
    }

    private func create(_ operation: SyncOperation, _ table: RecordKind) throws -> SyncResult {
        var fields = operation.fields.filter { table.columns.contains($0.key) }
        for column in table.columns where fields[column] == nil { fields[column] = .null }
        try table.check(records, operation.entityId, fields)
        let now = Date().storedText
        if table.metaColumns.contains("created_at") {
            fields["created_at"] = .string(operation.createdAt.storedText)
            fields["updated_at"] = .string(now)
        }
        if table.metaColumns.contains("is_predefined") { fields["is_predefined"] = .int(0) }
        let state = RecordState(entity: table.entity, entityId: operation.entityId, deleted: false, version: 1, fields: fields)
        try records.store(state, table, by: operation, fields: operation.fields)
        return SyncResult(operationId: operation.operationId, outcome: .applied, current: state)
    }

    private func update(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> SyncResult {
        if current.deleted {
            guard try records.wasEverWritten(table, operation.entityId) else {
                return rejected(operation, "This \(table.noun) does not exist on the hub; its creation may have failed.", current: current)
            }
            let losing = table.withoutCredentials(operation.fields).map { LosingField(name: $0.key, mine: $0.value, theirs: .null) }
                .sorted { $0.name < $1.name }
            return SyncResult(operationId: operation.operationId, outcome: .conflict, reason: "deleted", losingFields: losing, current: current)
        }
        var winning: [String: JSONValue] = [:]
        var losing: [LosingField] = []
        for (name, mine) in operation.fields where table.columns.contains(name) {
            let theirs = current.fields[name] ?? .null
            if theirs.storesSame(as: mine) { continue }
            if table.credentialColumns.contains(name) {
                // A credential is set by an edit that changes it (a password change), whichever reaches the hub last;
                // a create of a record the hub holds (a node re-sending its copy on linking) may carry a stale one.
                if operation.operation == .update { winning[name] = mine }
                continue
            }
            let before = operation.before[name]
            if operation.operation == .update, before == nil || before!.storesSame(as: theirs) {
                winning[name] = mine
            } else {
                losing.append(LosingField(name: name, mine: mine, theirs: theirs))
            }
        }
        var state = current
        if !winning.isEmpty {
            state = current.edited(winning, table)
            try table.check(records, state.entityId, state.fields)
            try records.store(state, table, by: operation, fields: winning)
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
        try records.store(gone, table, by: operation, fields: [:])
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

    /// Operations keep their author's rights: a user this hub knows must still hold the role the change needs, and a
    /// row that belongs to one user is changed only by them (or by Fieldbook itself, whose author is not a user id).
    private func permissionRefusal(_ operation: SyncOperation, _ table: RecordKind, _ current: RecordState) throws -> String? {
        if table.requiredRole == .administrator, case .node(let signedIn) = pusher {
            return try grantRefusal(operation, table, linkedBy: signedIn)
        }
        guard let authorId = UUID(uuidString: operation.author) else { return nil }
        if let ownerColumn = table.ownerColumn {
            let owner = current.deleted ? operation.fields[ownerColumn] : current.fields[ownerColumn]
            guard owner.map({ UUID(uuidString: [ownerColumn: $0].text(ownerColumn)) == authorId }) == true else {
                return "Only the person a \(table.label.one) belongs to may change it."
            }
        }
        guard let account = try records.account(authorId) else { return nil }
        let allowed = switch table.requiredRole {
        case .administrator: account.role.canAdminister
        case .editor: account.role.canEditRecords
        case .readOnly: true
        }
        if account.disabled { return "The author's account is disabled on the hub." }
        return allowed ? nil : "The author's role on the hub (\(account.role.label)) may not change this kind of record."
    }

    /// Accounts and roles are granted on a hub by its administrators only: a node's push of one is taken when its author
    /// is an enabled administrator here, or when it is the node's copy sent on linking, which the account that linked
    /// the node (an administrator, checked the same way) vouches for. Nothing made by Fieldbook itself on a node
    /// (a first administrator made at /setup, an account from its command line) nor by someone unknown here is taken.
    private func grantRefusal(_ operation: SyncOperation, _ table: RecordKind, linkedBy signedIn: UUID) throws -> String? {
        let grantor = UUID(uuidString: operation.author) ?? (operation.author == Actor.linking.recorded ? signedIn : nil)
        guard let grantor, let account = try records.account(grantor), account.role.canAdminister, !account.disabled else {
            return "Only an administrator of the hub may change a \(table.label.one) there; this change was made on a node by "
                + "someone who is not one (\(operation.author)). A hub administrator can make the account on the hub."
        }
        return nil
    }

    private func rejected(_ operation: SyncOperation, _ reason: String, current: RecordState?) -> SyncResult {
        let state = current ?? .absent(operation.entity, operation.entityId)
        return SyncResult(operationId: operation.operationId, outcome: .rejected, reason: reason, current: state)
    }
}

extension RecordState {
    /// The record with `changes` set as an edit: version raised, `updated_at` stamped (not yet checked or stored).
    public func edited(_ changes: [String: JSONValue], _ table: RecordKind) -> RecordState {
        var edited = self
        edited.fields.merge(changes) { $1 }
        edited.version += 1
        if table.metaColumns.contains("updated_at") { edited.fields["updated_at"] = .string(Date().storedText) }
        return edited
    }
}
