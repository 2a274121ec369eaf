import Domain
import Foundation

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
