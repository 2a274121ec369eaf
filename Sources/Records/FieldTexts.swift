import Domain
import Foundation

/// What was typed for a kind's fields, one text per field people type, by its column: from a form's fields or an API
/// body, or a stored record's values written out as its edit form first shows them. A kind's Input is made from it
/// (`ParticipantInput(_:)`), so pages, resources and importers name no field one by one.
public struct FieldTexts<Record> {
    private let fields: [RecordField<Record>]
    private let texts: [String: String]

    /// `text(column)`: what was typed for the field of that column ("" for none).
    public init(_ declaration: RecordDeclaration<Record>, _ text: (String) throws -> String) rethrows {
        fields = declaration.fields.filter { $0.declaration.rule != nil }
        texts = Dictionary(uniqueKeysWithValues: try fields.map { ($0.column, try text($0.column)) })
    }

    /// The record's stored values as text.
    public init(_ declaration: RecordDeclaration<Record>, record: Record) {
        let values = Dictionary(uniqueKeysWithValues: declaration.fields.map { ($0.column, $0.value(of: record).text) })
        self.init(declaration) { values[$0] ?? "" }
    }

    /// The text typed for the field of `column`.
    public subscript(column column: String) -> String { texts[column] ?? "" }

    /// The text typed for the field that is the record's `property`, which must be a declared field people type.
    public subscript<Value>(_ property: WritableKeyPath<Record, Value>) -> String {
        guard let field = fields.first(where: { $0.keyPath as AnyKeyPath == property }) else { preconditionFailure("\(property) is not a typed field") }
        return texts[field.column] ?? ""
    }
}

extension RecordDeclaration {
    /// The rule of each field people type, by column.
    public var rules: [String: FieldRule] {
        Dictionary(uniqueKeysWithValues: fields.compactMap { field in field.declaration.rule.map { (field.column, $0) } })
    }
}
