import Domain
import Foundation
import Translations

/// One kind of record that travels between nodes, declared once: its table, its fields (`RecordField`), who may change
/// it, and how people name it. Its column lists, references, search text and the hub's validator derive from the
/// fields; sync, the change log, record states, the home page counts and the row writer derive from it.
public struct RecordKind: Sendable {
    /// The kind's name on the wire and in the change feed ("participant").
    public let entity: String
    public let table: String
    /// Every field, in the order the kind declares them.
    public let fields: [FieldDeclaration]
    /// Columns a change may set (the wire's field names).
    public let columns: [String]
    /// Columns carried verbatim from the hub so every node holds the same values (never pushed as edits).
    public let metaColumns: [String]
    /// Who may change rows of this kind.
    public let requiredRole: UserRole
    /// Columns folded into `search_text`, in order; empty for kinds that are not searched by text.
    public let searchColumns: [String]
    /// The kind in words, singular and plural ("participant", "participants").
    public let label: (one: String, many: String)
    /// Rows are only ever added: the hub refuses changes and deletions, so copies made on two nodes never conflict.
    public let appendOnly: Bool
    /// For rows that belong to one user (notifications): the column naming them. Only that user, or Fieldbook itself,
    /// may change such a row, whatever their role.
    public let ownerColumn: String?
    /// Columns naming another record, and what deleting that record does to this one. SQLite's schema enforces them
    /// on every Fieldbook; a PostgreSQL hub, which keeps every kind in one table, enforces them from here
    /// (`RecordKindTests` checks the two agree).
    public let references: [Reference]
    /// Sets of columns no two records of the kind may share, compared ignoring case (SQLite's `COLLATE NOCASE`).
    public let uniqueKeys: [[String]]
    /// The stored columns that may be NULL; every other one is NOT NULL.
    public let optionalColumns: Set<String>
    /// The stored columns that must hold a value (NOT NULL): every column a change may set or the hub carries, but the
    /// optional ones.
    public let requiredColumns: [String]
    /// Whether "export everything" includes the kind: the community's records do; accounts (which hold password
    /// hashes) and one person's notifications do not.
    public let inFullExport: Bool
    /// Columns holding a credential (a password hash). They travel so people sign in on every node, but never take
    /// part in field merges, conflicts or re-applied values: a copy re-sent on linking may be stale, and setting an old
    /// one again would let an old password back in. Only an edit that changes one (a password change) sets it.
    public let credentialColumns: Set<String>
    /// Columns holding a moment (stored `yyyy-MM-dd HH:mm:ss.SSS`, UTC), which exports write in ISO 8601.
    public let instantColumns: Set<String>
    /// The columns a record state sets when it is stored, in the order `RecordStates.stagedRow` gives their values.
    public let storedColumns: [String]
    /// The columns exports write.
    private let exported: Set<String>
    /// What the fields' rules cannot say on their own (an area's parents, a period's dates), added to their problems;
    /// reads other records through the store that holds them.
    private let extraCheck: ExtraCheck

    public typealias ExtraCheck = @Sendable (_ lookup: any RecordLookup, _ id: UUID, _ fields: [String: JSONValue],
                                             _ errors: inout ValidationError) throws -> Void

    public init<Record>(entity: String, table: String, _ declaration: RecordDeclaration<Record>, requiredRole: UserRole = .editor,
                        label: (one: String, many: String), appendOnly: Bool = false,
                        ownerColumn: String? = nil, inFullExport: Bool = true, uniqueKeys: [[String]] = [],
                        check extraCheck: @escaping ExtraCheck = { _, _, _, _ in }) {
        let fields = declaration.fields.map(\.declaration)
        func columns(_ include: (FieldDeclaration) -> Bool) -> [String] { fields.filter(include).map(\.column) }
        self.entity = entity
        self.table = table
        self.fields = fields
        self.columns = columns { !$0.flags.contains(.meta) }
        metaColumns = columns { $0.flags.contains(.meta) }
        self.requiredRole = requiredRole
        searchColumns = columns { $0.flags.contains(.searched) }
        self.label = label
        self.appendOnly = appendOnly
        self.ownerColumn = ownerColumn
        references = fields.compactMap(\.reference)
        self.uniqueKeys = uniqueKeys
        let optional = Set(columns(\.isOptional))
        optionalColumns = optional
        requiredColumns = (self.columns + metaColumns).filter { !optional.contains($0) }
        self.inFullExport = inFullExport
        credentialColumns = Set(columns { $0.flags.contains(.credential) })
        instantColumns = Set(columns(\.isInstant))
        storedColumns = ["id", "version"] + self.columns + metaColumns
        exported = Set(columns { !$0.flags.contains(.notExported) })
        self.extraCheck = extraCheck
    }

    /// Every synced kind, parents before the kinds that refer to them (linking queues them in this order).
    public static let all: [RecordKind] = firstKinds + visitKinds + notificationKinds + photoKinds + mergeKinds
        + [Note.kind]

    /// Every kind's columns that name a participant: what a merge points at the record that stays.
    public static let referencesToParticipants: [(kind: RecordKind, reference: Reference)] = all.flatMap { kind in
        kind.references.filter { $0.entity == Participant.kind.entity }.map { (kind, $0) }
    }

    /// The entity of accounts (users), which sync treats apart in places.
    public static var accountEntity: String { UserRow.kind.entity }

    /// The kinds of the first schema, whose change-log triggers the v4 sync migration made.
    public static let firstKinds: [RecordKind] = [
        Category.kind(.activityType), Category.kind(.participantRole), GeographicArea.kind, Venue.kind, Participant.kind,
        PeriodRow.addressKind, Activity.kind, PeriodRow.activityVenueKind, AssignmentRow.kind, UserRow.kind,
    ]

    /// Field visits; their tables and triggers come with their own migration.
    public static let visitKinds: [RecordKind] = [VisitList.kind, VisitStop.kind, ContactLog.kind]

    /// Notifications and their preferences, with their own migration.
    public static let notificationKinds: [RecordKind] = [NotificationRow.kind, NotificationPreferences.kind]

    /// Photos of participants, venues and activities, with their own migration.
    public static let photoKinds: [RecordKind] = [Photo.kind]

    /// Merges of participant records, kept as facts that travel, with their own migration.
    public static let mergeKinds: [RecordKind] = [ParticipantMergeRow.kind]

    private static let byEntity: [String: RecordKind] = Dictionary(uniqueKeysWithValues: all.map { ($0.entity, $0) })

    public static func named(_ entity: String) -> RecordKind? { byEntity[entity] }

    /// What an export writes of each row: its id, the columns a change may set, and the columns carried from the hub.
    public var exportColumns: [String] { ["id"] + (columns + metaColumns).filter { exported.contains($0) } }

    /// The kind of record in words, for messages ("participant address").
    public var noun: String { entity.replacingOccurrences(of: "_", with: " ") }

    /// The fields without the credentials among them: what may be merged, be in conflict or be applied again.
    public func withoutCredentials<Value>(_ fields: [String: Value]) -> [String: Value] {
        credentialColumns.isEmpty ? fields : fields.filter { !credentialColumns.contains($0.key) }
    }

    /// Throws a ValidationError when the row would not pass the page's form (each field's rule, then the kind's own
    /// check), or when a text holds U+0000 (`containsNUL`).
    public func check(_ lookup: any RecordLookup, _ id: UUID, _ fields: [String: JSONValue]) throws {
        let withNUL = fields.filter { if case .string(let text) = $0.value { text.containsNUL } else { false } }
        if let field = withNUL.keys.sorted().first {
            throw ValidationError([FieldError(field: field, Message("Remove the NUL character (U+0000) from {field}", ["field": .text(field)]))])
        }
        var errors = ValidationError()
        for field in self.fields { field.check(fields[field.column]?.text ?? "", into: &errors) }
        try extraCheck(lookup, id, fields, &errors)
        try inDeclaredOrder(errors).throwIfAny()
    }

    /// The problems in the order of the fields they are about, as a form lists them (a kind's own check adds its
    /// problems after the rules'); problems about no declared field come last.
    private func inDeclaredOrder(_ errors: ValidationError) -> ValidationError {
        guard !errors.isEmpty else { return errors }
        let position = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.column, $0) })
        let ordered = errors.fieldErrors.enumerated().sorted { first, second in
            (position[first.element.field] ?? fields.count, first.offset) < (position[second.element.field] ?? fields.count, second.offset)
        }
        return ValidationError(ordered.map(\.element), cause: errors.cause)
    }

    public static let timestamps = ["created_at", "updated_at"]
}

/// A column of one kind naming a record of another, as a foreign key: deleting the named record is refused while this
/// one refers to it (`restrict`), deletes this one too (`cascade`), or empties the column (`setNull`).
public struct Reference: Sendable, Equatable {
    public enum OnDelete: String, Sendable { case restrict = "RESTRICT", cascade = "CASCADE", setNull = "SET NULL" }

    public let column: String
    /// The entity of the kind named.
    public let entity: String
    public let onDelete: OnDelete

    public init(_ column: String, _ entity: String, _ onDelete: OnDelete = .restrict) {
        (self.column, self.entity, self.onDelete) = (column, entity, onDelete)
    }
}

/// Reads records for a kind's check (an area's chain of parents), from whichever store holds them: a node's SQLite
/// database or a PostgreSQL hub.
public protocol RecordLookup {
    /// The record's synced fields, or nil when there is no such record (never written, or deleted).
    func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]?
}

extension [String: JSONValue] {
    /// A field as form text: strings as they are, numbers written out, null and missing as empty.
    public func text(_ key: String) -> String { self[key]?.text ?? "" }
}
