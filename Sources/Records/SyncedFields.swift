import Domain
import Foundation

extension RecordDeclaration {
    /// The values a change of `record` carries: `kind`'s synced columns as every store holds them, for a store that
    /// makes changes without a database row to read them from.
    public func syncedFields(of record: Record, _ kind: RecordKind) -> [String: JSONValue] {
        let values = Dictionary(uniqueKeysWithValues: values(of: record).map { ($0.column, $0.value) })
        return Dictionary(uniqueKeysWithValues: kind.columns.map { ($0, values[$0]?.asStored ?? .null) })
    }
}
