import Domain
import Foundation
import Records

/// Merges of participants on a hub, by the same rules on both kinds of hub. A merge travels as a fact
/// (`ParticipantMergeRow`): once a hub holds it, the merged-away record is gone for good, and whatever a node pushes
/// that still names it (made before the node heard of the merge) acts on the survivor instead.
extension HubDecider {
    /// What to decide instead of a pushed operation that names a merged-away participant, or the answer already.
    enum Followed {
        case operation(SyncOperation)
        case answered(SyncResult)
    }

    /// The operation with every merged-away participant it names replaced by its survivor:
    /// - an edit of one lands on the survivor; a field whose replaced value is the one the merge saw counts as edited
    ///   on the survivor's current value (the person typed something newer than either record held), any other field
    ///   is judged against the survivor's value as usual;
    /// - its deletion (the same merge made on another node) or its creation sent again (a relink) is already so;
    /// - a reference to one (an assignment, a stop, a photo, an address) refers to the survivor; an assignment a
    ///   survivor already holds in the same role (made for either record on nodes apart) is already there, and so is the
    ///   merge's move of it.
    func followingMerges(_ operation: SyncOperation, _ table: RecordKind) throws -> Followed {
        var followed = operation
        if table.entity == Participant.kind.entity, let survivor = try survivor(of: operation.entityId) {
            guard operation.operation == .update else { return .answered(applied(operation, .absent(table.entity, operation.entityId))) }
            let seen = ParticipantMerges.removedValues(try records.state(ParticipantMergeRow.kind, operation.entityId))
            let current = try records.state(table, survivor)
            followed.entityId = survivor
            for (name, before) in operation.before where before.storesSame(as: seen[name] ?? .null) {
                followed.before[name] = current.fields[name] ?? .null
            }
            followed.baseVersion = current.version
        }
        let namesMergedAway = try table.references.contains { try $0.entity == Participant.kind.entity && survivor(named: operation.before[$0.column]) != nil }
        if operation.operation != .create, namesMergedAway, try !records.wasEverWritten(table, operation.entityId) {
            // A move made by the merge of a record whose creation was taken as one the survivor already held (below).
            return .answered(applied(operation, .absent(table.entity, operation.entityId)))
        }
        for reference in table.references where reference.entity == Participant.kind.entity {
            if let survivor = try survivor(named: followed.fields[reference.column]) { followed.fields[reference.column] = .string(survivor.lowercaseText) }
            if let survivor = try survivor(named: followed.before[reference.column]) { followed.before[reference.column] = .string(survivor.lowercaseText) }
        }
        if table.entity == AssignmentRow.kind.entity, operation.operation == .create,
           let participant = UUID(uuidString: followed.fields.text("participant_id")),
           try followed.fields != operation.fields || tookInMerges(participant), try holdsAssignment(participant, like: followed.fields) {
            return .answered(applied(operation, .absent(table.entity, operation.entityId)))
        }
        return .operation(followed)
    }

    /// Completes a merge the hub has just taken: later edits of the merged-away record (their values differ from the
    /// ones the merge saw) move to the survivor, then everything that still names it (made on nodes the merging node
    /// had not heard from), and the merged-away record is deleted, whatever its version. The merging node's own moves
    /// and edits came before the merge in its queue, so they are already here.
    func completeMerge(_ merge: RecordState, by operation: SyncOperation) throws {
        let participant = Participant.kind
        let removed = try records.state(participant, merge.entityId)
        guard !removed.deleted, let survivorId = try survivor(of: merge.entityId) else { return }
        let survivor = try records.state(participant, survivorId)
        // Deleted on the hub meanwhile: the merged-away record is then the person's only one, and stays.
        guard !survivor.deleted else { return }
        let seen = ParticipantMerges.removedValues(merge)
        let later = removed.fields.filter { participant.columns.contains($0.key) && !$0.value.storesSame(as: seen[$0.key] ?? .null) }
        if !later.isEmpty { try edit(survivor, participant, later, by: operation) }
        for (kind, reference) in RecordKind.referencesToParticipants {
            for record in try records.referencing(kind, column: reference.column, id: removed.entityId) {
                if kind.entity == AssignmentRow.kind.entity, try holdsAssignment(survivorId, like: record.fields) {
                    try store(RecordState.absent(kind.entity, record.entityId), kind, over: record, by: operation)
                } else {
                    try edit(record, kind, [reference.column: .string(survivorId.lowercaseText)], by: operation)
                }
            }
        }
        try store(.absent(participant.entity, removed.entityId), participant, over: removed, by: operation)
    }

    /// The participant the merges of the one `id` names lead to, or nil when it was never merged away.
    private func survivor(of id: UUID) throws -> UUID? {
        try ParticipantMerges.survivor(of: id) { try records.state(ParticipantMergeRow.kind, $0) }
    }

    private func survivor(named value: JSONValue?) throws -> UUID? {
        guard case .string(let text)? = value, let id = UUID(uuidString: text) else { return nil }
        return try survivor(of: id)
    }

    /// Whether another record was merged into the participant: its assignments, made on nodes apart, may repeat.
    private func tookInMerges(_ participant: UUID) throws -> Bool {
        try !records.referencing(ParticipantMergeRow.kind, column: "survivor_id", id: participant).isEmpty
    }

    /// Whether the participant already has an assignment to the activity in the role `fields` name.
    private func holdsAssignment(_ participant: UUID, like fields: [String: JSONValue]) throws -> Bool {
        try records.referencing(AssignmentRow.kind, column: "participant_id", id: participant).contains {
            $0.fields.text("activity_id") == fields.text("activity_id") && $0.fields.text("role_id") == fields.text("role_id")
        }
    }

    private func edit(_ record: RecordState, _ kind: RecordKind, _ changes: [String: JSONValue], by operation: SyncOperation) throws {
        try store(record.edited(changes, kind), kind, over: record, by: operation)
    }

    /// Stores a change the merge makes, recorded as its own operation by the merge's author.
    private func store(_ state: RecordState, _ kind: RecordKind, over record: RecordState, by merge: SyncOperation) throws {
        let fields = state.deleted ? [:] : state.fields.filter { kind.columns.contains($0.key) && record.fields[$0.key] != $0.value }
        let change = SyncOperation(operationId: UUID(), operation: state.deleted ? .delete : .update, entity: kind.entity,
                                   entityId: record.entityId, fields: fields, before: record.fields.filter { fields[$0.key] != nil },
                                   baseVersion: record.version, author: merge.author, createdAt: merge.createdAt)
        try records.store(state, kind, by: change, fields: fields)
    }

    private func applied(_ operation: SyncOperation, _ current: RecordState) -> SyncResult {
        SyncResult(operationId: operation.operationId, outcome: .applied, current: current)
    }
}
