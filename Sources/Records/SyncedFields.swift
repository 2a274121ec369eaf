import Domain
import Foundation

extension RecordKind {
    /// The values a change of `record` carries: the kind's synced columns as every store holds them, for a store that
    /// makes changes without a database row to read them from.
    public func syncedFields<Record>(of record: Record, _ declaration: RecordDeclaration<Record>) -> [String: JSONValue] {
        let values = Dictionary(declaration.values(of: record), uniquingKeysWith: { first, _ in first })
        return Dictionary(uniqueKeysWithValues: columns.map { ($0, values[$0]?.asStored ?? .null) })
    }
}
