import Domain
import Foundation
import Translations

/// A kind's fields on its record type, and how to make a record to fill from stored values: what every store's row
/// coding (GRDB's, a PostgreSQL hub's, the sync wire's) derives from.
public struct RecordDeclaration<Record>: Sendable {
    public let fields: [RecordField<Record>]
    /// The columns holding a moment, which each store reads in its own way before the field's codec sees them.
    public let instantColumns: Set<String>
    /// The fields naming another record, which every write checks: kept apart so the check reads only these.
    public let referenceFields: [RecordField<Record>]
    /// A record with this id and version whose fields are still to be set (`assign`).
    private let blank: @Sendable (UUID, Int) -> Record

    public init(_ fields: [RecordField<Record>], blank: @escaping @Sendable (_ id: UUID, _ version: Int) -> Record) {
        (self.fields, self.blank) = (fields, blank)
        instantColumns = Set(fields.filter(\.declaration.isInstant).map(\.column))
        referenceFields = fields.filter { $0.declaration.reference != nil }
    }

    /// The record whose id, version and fields are these stored values (`value(column)`: a column's value).
    public func record(id: UUID, version: Int, _ value: (String) throws -> JSONValue) rethrows -> Record {
        var record = blank(id, version)
        for field in fields { field.assign(try value(field.column), to: &record) }
        return record
    }

    /// The column of the field at `keyPath`: what SQL names it by.
    public func column(_ keyPath: PartialKeyPath<Record>) -> String { field(keyPath).column }

    /// The field that is the record's `property`, which must be declared.
    public func field(_ property: PartialKeyPath<Record>) -> RecordField<Record> {
        guard let field = fields.first(where: { $0.keyPath as AnyKeyPath == property }) else { preconditionFailure("\(property) is not a declared field") }
        return field
    }

    /// The record's fields as their columns store them, in declared order.
    public func values(of record: Record) -> [(column: String, value: JSONValue)] {
        fields.map { ($0.column, $0.value(of: record)) }
    }
}

extension RecordField {
    /// The edit times every kind that keeps them has, carried from the hub.
    public static func timestamps(created: WritableKeyPath<Record, Date> & Sendable, updated: WritableKeyPath<Record, Date> & Sendable) -> [RecordField] {
        [RecordField(created, "created_at", .instant, label: Message("Created"), .meta),
         RecordField(updated, "updated_at", .instant, label: Message("Updated"), .meta)]
    }
}
