import Domain
import Foundation
import GRDB

/// One kind of record that travels between nodes, described once: its table, the columns a change may set, who may
/// change it, the text it is searched by, the check its values must pass (the same validation the pages use), and how
/// people name it. Sync, the change log, record states, the home page counts and the row writer derive from it.
public struct RecordKind: Sendable {
    /// The kind's name on the wire and in the change feed ("participant").
    public let entity: String
    public let table: String
    /// Columns a change may set (the wire's field names).
    public let columns: [String]
    /// Columns carried verbatim from the hub so every node holds the same values (never pushed as edits).
    public let metaColumns: [String]
    /// Who may change rows of this kind.
    public let requiredRole: UserRole
    /// Columns folded into `search_text`, in order; empty for kinds that are not searched by text.
    let searchColumns: [String]
    /// The kind in words, singular and plural ("participant", "participants").
    public let label: (one: String, many: String)
    /// The list page, for kinds people browse.
    public let listPath: String?
    /// Throws a ValidationError when the row's values would not pass the page's form; reads other records (an area's
    /// parents) through the store that holds them.
    let validate: @Sendable (any RecordLookup, UUID, [String: JSONValue]) throws -> Void
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
    let instantColumns: Set<String>

    init(entity: String, table: String, columns: [String], metaColumns: [String] = [], requiredRole: UserRole = .editor,
         searchColumns: [String] = [], label: (one: String, many: String), listPath: String? = nil, appendOnly: Bool = false,
         ownerColumn: String? = nil, inFullExport: Bool = true, instants: [String] = [], references: [Reference] = [],
         uniqueKeys: [[String]] = [], optional: [String] = [], credentials: [String] = [], validate: @escaping @Sendable (any RecordLookup, UUID, [String: JSONValue]) throws -> Void) {
        self.entity = entity
        self.table = table
        self.columns = columns
        self.metaColumns = metaColumns
        self.requiredRole = requiredRole
        self.searchColumns = searchColumns
        self.label = label
        self.listPath = listPath
        self.appendOnly = appendOnly
        self.ownerColumn = ownerColumn
        self.references = references
        self.uniqueKeys = uniqueKeys
        optionalColumns = Set(optional)
        requiredColumns = (columns + metaColumns).filter { !optional.contains($0) }
        self.inFullExport = inFullExport
        credentialColumns = Set(credentials)
        instantColumns = Set(instants + metaColumns.filter(RecordKind.timestamps.contains))
        storedColumns = ["id", "version"] + columns + metaColumns
        self.validate = validate
    }

    /// Every synced kind, parents before the kinds that refer to them (linking queues them in this order).
    public static let all: [RecordKind] = firstKinds + visitKinds + notificationKinds + photoKinds + mergeKinds

    /// Every kind's columns that name a participant: what a merge points at the record that stays.
    static let referencesToParticipants: [(kind: RecordKind, reference: Reference)] = all.flatMap { kind in
        kind.references.filter { $0.entity == Participant.kind.entity }.map { (kind, $0) }
    }

    /// The entity of accounts (users), which sync treats apart in places.
    public static var accountEntity: String { UserRow.kind.entity }

    /// The kinds of the first schema, whose change-log triggers the v4 sync migration made.
    static let firstKinds: [RecordKind] = [
        Category.kind(.activityType), Category.kind(.participantRole), GeographicArea.kind, Venue.kind, Participant.kind,
        PeriodRow.addressKind, Activity.kind, PeriodRow.activityVenueKind, AssignmentRow.kind, UserRow.kind,
    ]

    /// Field visits (issue 12); their tables and triggers come with their own migration.
    static let visitKinds: [RecordKind] = [VisitList.kind, VisitStop.kind, ContactLog.kind]

    /// Notifications and their preferences (issue 13), with their own migration.
    static let notificationKinds: [RecordKind] = [NotificationRow.kind, NotificationPreferencesRow.kind]

    /// Photos of participants, venues and activities (issue 14), with their own migration.
    static let photoKinds: [RecordKind] = [Photo.kind]

    /// Merges of participant records, kept as facts that travel (issue 36), with their own migration.
    static let mergeKinds: [RecordKind] = [ParticipantMergeRow.kind]

    private static let byEntity: [String: RecordKind] = Dictionary(uniqueKeysWithValues: all.map { ($0.entity, $0) })

    public static func named(_ entity: String) -> RecordKind? { byEntity[entity] }

    /// What an export writes of each row: its id, the columns a change may set, and the columns carried from the hub.
    public var exportColumns: [String] { ["id"] + columns + metaColumns }

    /// The columns a record state sets when it is stored, in the order `RecordStates.stagedRow` gives their values.
    let storedColumns: [String]

    /// The kind of record in words, for messages ("participant address").
    public var noun: String { entity.replacingOccurrences(of: "_", with: " ") }

    /// The `search_text` of a row with these values, or nil for kinds without one.
    func searchText(_ values: [String: DatabaseValue]) -> String? {
        searchText(searched: searchColumns.map { values[$0] })
    }

    /// The `search_text` of a row whose `searchColumns` hold these values, in order (nil: a column the row lacks).
    func searchText(searched values: [DatabaseValue?]) -> String? {
        guard !searchColumns.isEmpty else { return nil }
        return SearchText.of(values.map { $0.flatMap(String.fromDatabaseValue) ?? "" })
    }

    /// The fields without the credentials among them: what may be merged, be in conflict or be applied again.
    public func withoutCredentials<Value>(_ fields: [String: Value]) -> [String: Value] {
        credentialColumns.isEmpty ? fields : fields.filter { !credentialColumns.contains($0.key) }
    }

    /// The values a change of a row carries: its synced columns as they are stored.
    func syncedFields(_ values: [String: DatabaseValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: columns.map { ($0, JSONValue(values[$0] ?? .null)) })
    }

    /// Throws a ValidationError when the row would not pass the page's form, or when a text holds U+0000 (`containsNUL`).
    public func check(_ lookup: any RecordLookup, _ id: UUID, _ fields: [String: JSONValue]) throws {
        let withNUL = fields.filter { if case .string(let text) = $0.value { text.containsNUL } else { false } }
        if let field = withNUL.keys.sorted().first {
            throw ValidationError([FieldError(field: field, message: "Remove the NUL character (U+0000) from \(field)")])
        }
        try validate(lookup, id, fields)
    }

    public static let timestamps = ["created_at", "updated_at"]

    /// Checks the dates of a period row (an address or an activity's venue).
    static func checkPeriod(_ fields: [String: JSONValue]) throws {
        let from = CalendarDate(fields.text("effective_from"))
        let toText = fields.text("effective_to")
        var errors = ValidationError()
        if from == nil { errors.add("effective_from", "Enter the date as a real day, like 2025-03-12") }
        if !toText.isEmpty, CalendarDate(toText) == nil { errors.add("effective_to", "Enter the date as a real day, like 2025-03-12") }
        try errors.throwIfAny()
    }
}

/// A column of one kind naming a record of another, as a foreign key: deleting the named record is refused while this
/// one refers to it (`restrict`), deletes this one too (`cascade`), or empties the column (`setNull`).
public struct Reference: Sendable, Equatable {
    public enum OnDelete: String, Sendable { case restrict = "RESTRICT", cascade = "CASCADE", setNull = "SET NULL" }

    public let column: String
    /// The entity of the kind named.
    public let entity: String
    public let onDelete: OnDelete

    init(_ column: String, _ entity: String, _ onDelete: OnDelete = .restrict) {
        (self.column, self.entity, self.onDelete) = (column, entity, onDelete)
    }
}

/// Reads records for a kind's check (an area's chain of parents), from whichever store holds them: a node's SQLite
/// database or a PostgreSQL hub.
public protocol RecordLookup {
    /// The record's synced fields, or nil when there is no such record (never written, or deleted).
    func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]?
}

extension Database: RecordLookup {
    public func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]? {
        let state = try RecordStates.read(self, kind, id: id)
        return state.deleted ? nil : state.fields
    }
}
