import Domain
import Foundation
import Records

/// A record kind as the API writes and takes it, derived from the kind's declared fields: its body (`body`), its schema
/// component (`schema`), its write fields (`writeFields`) and the form texts a body stands for (`texts`). A resource
/// states only what differs: fields shown in another shape (`leftOut`), fields the kind does not declare (`read`,
/// `write`), and what the document says of a field beyond its rule (`shown`, `summaries`).
struct APIRecordShape<Record: Sendable>: Sendable {
    /// A field the API has that the kind does not declare, placed after the declared field `after` (nil: after them all).
    struct Extra: Sendable {
        let field: Field
        let after: String?

        init(_ field: Field, after: String? = nil) { (self.field, self.after) = (field, after) }
    }

    private let declaration: RecordDeclaration<Record>
    let id: @Sendable (Record) -> UUID
    /// nil for a kind the API shows without its version (assignments, which are only added and removed).
    private let version: (@Sendable (Record) -> Int)?
    private let leftOut: Set<String>
    private let read: [Extra]
    private let write: [Extra]
    private let shown: [String: Field]
    private let summaries: [String: String]

    /// `shown`: a body field's schema where it says more than the field's rule (a summary, null for a hidden value).
    /// `summaries`: a write field's summary.
    init(_ declaration: RecordDeclaration<Record>, id: @escaping @Sendable (Record) -> UUID, version: (@Sendable (Record) -> Int)?,
         leftOut: Set<String> = [], read: [Extra] = [], write: [Extra] = [], shown: [Field] = [], summaries: [String: String] = [:]) {
        (self.declaration, self.id, self.version, self.leftOut) = (declaration, id, version, leftOut)
        (self.read, self.write, self.summaries) = (read, write, summaries)
        self.shown = Dictionary(uniqueKeysWithValues: shown.map { ($0.name, $0) })
    }

    /// The declared fields the body shows, in declared order, the edit times apart (they follow the version).
    private var shownFields: [RecordField<Record>] {
        declaration.fields.filter { !leftOut.contains($0.column) && !RecordKind.timestamps.contains($0.column) }
    }

    private var timestampFields: [RecordField<Record>] { declaration.fields.filter { RecordKind.timestamps.contains($0.column) } }

    /// The fields a create or a change takes: each declared field people type, in declared order, then the version.
    var writeFields: [Field] {
        let typed = declaration.fields.filter { !$0.declaration.flags.contains(.meta) && !leftOut.contains($0.column) }
            .compactMap { field in field.declaration.rule.map { Field.input(field.column, $0, summaries[field.column]) } }
        return Self.placing(write, among: typed) + (version == nil ? [] : [.version()])
    }

    /// The body's schema: the id, each declared field (required; null where the field is optional), the version and
    /// the edit times.
    var schema: [Field] {
        let fields = shownFields.map { shown[$0.column] ?? Self.property($0.declaration) }
        return [.of("id", .uuid, required: true)] + Self.placing(read, among: fields) + (version == nil ? [] : [.version(required: true)])
            + timestampFields.map { Self.property($0.declaration) }
    }

    /// The record as the API writes it: `hiding` the fields the caller may not see (null), with `extras` the values of
    /// the fields the kind does not declare.
    func body(_ record: Record, hiding: Set<String> = [], extras: [String: any Encodable & Sendable] = [:]) -> RecordBody {
        var values: [String: any Encodable & Sendable] = extras
        values["id"] = id(record).text
        if let version { values["version"] = version(record) }
        for field in shownFields + timestampFields {
            values[field.column] = hiding.contains(field.column) ? JSONValue.null : Self.value(field, of: record)
        }
        return RecordBody(values: values)
    }

    /// The texts a body stands for, by field: what the body sends, or for a field it leaves out the value `keep` (the
    /// stored record, for PATCH) holds.
    func texts(_ body: APIBody, keep: Record?) -> FieldTexts<Record> {
        let kept = keep.map { FieldTexts(declaration, record: $0) }
        return FieldTexts(declaration) { body.text($0, otherwise: kept?[column: $0]) }
    }

    private static func value(_ field: RecordField<Record>, of record: Record) -> any Encodable & Sendable {
        if field.declaration.isInstant, let date = field.typedValue(of: record) as? Date { return date }
        return field.value(of: record)
    }

    /// A declared field in a body's schema: typed as its rule types it; without a rule, a moment as a date-time and a
    /// reference to another record as its id.
    private static func property(_ field: FieldDeclaration) -> Field {
        let kind = field.rule.map { Field.input(field.column, $0).kind } ?? (field.isInstant ? .dateTime : field.reference != nil ? .uuid : .text)
        return .of(field.column, kind, required: true, nullable: field.isOptional)
    }

    /// `fields` with each extra after the field it names, and those naming none at the end.
    private static func placing(_ extras: [Extra], among fields: [Field]) -> [Field] {
        fields.flatMap { field in [field] + extras.filter { $0.after == field.name }.map(\.field) } + extras.filter { $0.after == nil }.map(\.field)
    }
}

/// A record as the API writes it: its fields by name (the encoder sorts them).
struct RecordBody: Encodable, Sendable {
    let values: [String: any Encodable & Sendable]

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
    }
}
