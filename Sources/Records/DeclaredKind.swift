import Domain
import Foundation

/// A record type whose storage and pages derive from its declaration alone: adding such a kind is its declaration, its
/// migration, its page templates and a line in each route table (README, "Add a record kind").
public protocol DeclaredKind: NamedRecord, Sendable {
    static var kind: RecordKind { get }
    static var declaration: RecordDeclaration<Self> { get }
}

/// A record pages name, link to and edit at a version.
public protocol NamedRecord {
    var id: UUID { get }
    /// How pages and messages name the record; it must not hold a field the privacy setting may hide.
    var name: String { get }
    var version: Int { get set }
}

extension RecordDeclaration {
    /// The record these typed texts describe, once the kind's rules accept them: texts trimmed, an empty optional
    /// field stored as NULL, the fields the hub carries (`meta`) taken from `stored` or, for a new record, set to `now`.
    public func record(id: UUID, version: Int, _ texts: FieldTexts<Record>, over stored: Record?, at now: Date) -> Record {
        record(id: id, version: version) { column in
            let declared = field(column: column)
            if declared.declaration.flags.contains(.meta) { return stored.map(declared.value(of:)) ?? .string(StoredInstant.text(now)) }
            let text = texts[column: column].trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty && declared.declaration.isOptional ? .null : .string(text)
        }
    }

    /// The typed texts as the values their columns would store, for the kind's check (`RecordKind.check`).
    public func values(_ texts: FieldTexts<Record>) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: fields.filter { $0.declaration.rule != nil }.map { ($0.column, JSONValue.string(texts[column: $0.column])) })
    }

    private func field(column: String) -> RecordField<Record> {
        guard let field = fields.first(where: { $0.column == column }) else { preconditionFailure("\(column) is not a declared column") }
        return field
    }
}
