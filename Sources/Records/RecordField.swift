import Domain
import Foundation
import Translations

/// What a field is, without its record type: what forms, the API document, exports, the search text, the hub's
/// validator and the schema test read.
public struct FieldDeclaration: Sendable {
    /// The column, which is also the field's name on the wire, in the API and in exports.
    public let column: String
    /// The field in words, as a form's label and messages name it.
    public let label: Message
    /// The rule a value must keep (stated in Domain); nil for fields people do not type (a timestamp, a hash).
    public let rule: FieldRule?
    /// An example value, for a message about a number typed wrong.
    public let example: String?
    /// The column may be NULL.
    public let isOptional: Bool
    /// The record this field names, and what deleting that record does to this one.
    public let reference: Reference?
    /// What a write naming a record that no longer exists is told, at this field: a sentence of its own, since a
    /// label inside another sentence may need another case in some languages.
    public let missingReference: Message
    public let flags: FieldFlags
    /// The column holds a moment (stored `yyyy-MM-dd HH:mm:ss.SSS`, UTC), which exports write in ISO 8601.
    public let isInstant: Bool
    /// The personal detail the field is, which the privacy setting may hide from a viewer; nil for fields every viewer sees.
    public let privacy: PrivacyClass?
}

/// What else a field takes part in.
public struct FieldFlags: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Folded into `search_text`, in the order the kind declares its fields.
    public static let searched = FieldFlags(rawValue: 1 << 0)
    /// Shown in the kind's list.
    public static let listed = FieldFlags(rawValue: 1 << 1)
    /// Holds a credential (a password hash): it travels so people sign in on every node, but never takes part in field
    /// merges, conflicts or re-applied values (`RecordKind.credentialColumns`).
    public static let credential = FieldFlags(rawValue: 1 << 2)
    /// Carried verbatim from the hub so every node holds the same value (created_at, updated_at), never pushed as an edit.
    public static let meta = FieldFlags(rawValue: 1 << 3)
    /// Left out of exports.
    public static let notExported = FieldFlags(rawValue: 1 << 4)
}

/// One field of a record kind, typed: its declaration and how to read and write it on a `Record` through a key path,
/// as the `JSONValue` its column stores.
public struct RecordField<Record>: Sendable {
    public let declaration: FieldDeclaration
    /// The field on `Record`, by which code names its column (`RecordDeclaration.column(_:)`).
    public let keyPath: AnyKeyPath & Sendable
    private let read: @Sendable (Record) -> JSONValue
    private let write: @Sendable (inout Record, JSONValue) -> Void
    private let readTyped: @Sendable (Record) -> Any

    public init<Value>(_ keyPath: WritableKeyPath<Record, Value> & Sendable, _ column: String, _ codec: FieldCodec<Value>,
                       label: Message, rule: FieldRule? = nil, example: String? = nil, references: (entity: String, onDelete: Reference.OnDelete)? = nil,
                       ifMissing: Message? = nil, privacy: PrivacyClass? = nil, _ flags: FieldFlags = []) {
        precondition(references == nil || ifMissing != nil, "\(column) names another record: say with ifMissing what a write naming a missing one is told")
        declaration = FieldDeclaration(
            column: column, label: label, rule: rule, example: example, isOptional: Value.self is any OptionalValue.Type,
            reference: references.map { Reference(column, $0.entity, $0.onDelete) },
            missingReference: ifMissing ?? Message.verbatim(""), flags: flags,
            isInstant: codec.isInstant, privacy: privacy)
        self.keyPath = keyPath
        read = { codec.encode($0[keyPath: keyPath]) }
        write = { $0[keyPath: keyPath] = codec.decode($1) }
        readTyped = { $0[keyPath: keyPath] }
    }

    public var column: String { declaration.column }

    /// The field's value on `record`, as its column stores it.
    public func value(of record: Record) -> JSONValue { read(record) }

    /// The field's Swift value on `record`: the JSON API writes a moment from its `Date`, in the API's own shape, since
    /// the stored text rounds it differently.
    public func typedValue(of record: Record) -> Any { readTyped(record) }

    /// Sets the field on `record` from a stored value.
    public func assign(_ value: JSONValue, to record: inout Record) { write(&record, value) }
}

/// Optional values: a field whose Swift type is one is a column that may be NULL.
protocol OptionalValue {}
extension Optional: OptionalValue {}
