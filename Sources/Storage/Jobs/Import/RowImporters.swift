import Domain
import Foundation
import Records
import GRDB

/// What differs between importing participants, venues and activities: how a row is checked (with its kind's form
/// rules, references named by name or id), who it may already be, and how it is written (through the kind's writer).
protocol RowImporter {
    /// Problems of the row, worded as the kind's form words them: of the row alone, or, for a row that will be merged
    /// into the stored record `mergingInto` (the same Fieldbook id), of the values the merge would write, so a file of
    /// ids and phone numbers needs no names.
    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError]
    /// The row's keys: `strong` (the same record: merged), `weak` (possibly the same: shown). Folded; nil when empty.
    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?)
    /// The stored record with the row's strong key, then with its weak key.
    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)?
    func create(_ transaction: RecordTransaction, _ row: ImportedRow, id: UUID) throws
    /// Writes the row over a stored record; false when the record is not there (the caller creates it instead).
    func merge(_ transaction: RecordTransaction, _ row: ImportedRow, into id: UUID) throws -> Bool
    /// The file's lines in the order they are written, when rows name records that rows after them add (areas);
    /// nil: file order.
    var writeOrder: [Int]? { get }
    /// Where the names of records that are not here are noted, one per field naming them.
    var missingNames: [MissingNames] { get }
}

extension RowImporter {
    var writeOrder: [Int]? { nil }
    var missingNames: [MissingNames] { [] }
}

/// An importer whose rows are written as its kind's form input, through the kind's generic writer.
protocol InputImporter: RowImporter {
    associatedtype Record: WritableRecord & DeclaredRecord
    /// What a stored record's form shows beyond its fields (an activity's venues); `Void` for most kinds.
    associatedtype Extra
    /// The stored record's texts as its form would show them, with its extra; nil when it is not there.
    func current(_ db: Database, id: UUID) throws -> (texts: FieldTexts<Record>, extra: Extra)?
    /// The row's input, merged over `stored` when given, its references checked (refused at their field) and its
    /// values by the kind's rules.
    func checkedInput(_ row: ImportedRow, over stored: (texts: FieldTexts<Record>, extra: Extra)?) throws -> Record.Valid
    /// Creates the records the row names that the import creates (the person chose so), before the row is written.
    func createReferences(_ transaction: RecordTransaction, _ row: ImportedRow) throws
}

extension InputImporter {
    func createReferences(_ transaction: RecordTransaction, _ row: ImportedRow) throws {}

    func create(_ transaction: RecordTransaction, _ row: ImportedRow, id: UUID) throws {
        try createReferences(transaction, row)
        try transaction.create(Record.self, checkedInput(row, over: nil), id: id)
    }

    func merge(_ transaction: RecordTransaction, _ row: ImportedRow, into id: UUID) throws -> Bool {
        guard let current = try current(transaction.db, id: id) else { return false }
        try createReferences(transaction, row)
        try transaction.update(Record.self, id: id, checkedInput(row, over: current), expectedVersion: nil)
        return true
    }
}

extension InputImporter where Extra == Void {
    func current(_ db: Database, id: UUID) throws -> (texts: FieldTexts<Record>, extra: Void)? {
        try Record.fetchOne(db, key: id.databaseText).map { (FieldTexts(Record.declaration, record: $0), ()) }
    }
}

extension ImportedRow {
    /// What the kind's form would be sent for the row, by column: each field from the import field of its column's
    /// name, and each field naming another record from `references` (its id, resolved beforehand from a name or id).
    /// Over `stored`, each value the file gives replaces the stored one; an empty cell keeps what is stored.
    func texts<Record>(_ declaration: RecordDeclaration<Record>, references: [String: String],
                       over stored: FieldTexts<Record>?) -> FieldTexts<Record> {
        FieldTexts(declaration) { column in
            let file = references[column] ?? ImportField(rawValue: column).map(formText) ?? ""
            return file.isEmpty ? stored?[column: column] ?? "" : file
        }
    }
}

extension ImportTarget {
    /// The kind the file's rows are records of.
    var kind: RecordKind {
        switch self {
        case .participants: Participant.kind
        case .venues: Venue.kind
        case .activities: Activity.kind
        case .areas: GeographicArea.kind
        case .assignments: AssignmentRow.kind
        }
    }

    /// The kind's table, for matches by id and the names the review shows.
    var table: String { kind.table }

    /// What the review shows of a stored match (`p`): its name, and what tells it apart, as SQL.
    var matchColumns: (name: String, detail: String) {
        switch self {
        case .participants: ("p.name", "p." + Participant.declaration.column(\.email))
        case .venues: ("p.name", "p." + Venue.declaration.column(\.address))
        case .activities: ("p.name", "p." + Activity.declaration.column(\.startDate))
        case .areas: ("p.name", "p." + GeographicArea.declaration.column(\.areaType))
        case .assignments: ("(SELECT name FROM participants WHERE id = p.participant_id)", "(SELECT name FROM activities WHERE id = p.activity_id)")
        }
    }

    /// The import field each of the kind's declared columns is read from, so a form's problem with a column names the
    /// file's field: the field of the column's name, or for a column naming another record, the field that holds that
    /// record's name or Fieldbook id.
    var fieldsByColumn: [String: ImportField] {
        var byColumn: [String: ImportField] = [:]
        for declared in kind.fields {
            if let same = ImportField(rawValue: declared.column), fields.contains(same) {
                byColumn[declared.column] = same
            } else if let entity = declared.reference?.entity, let naming = fields.first(where: { $0.namedEntity == entity }) {
                byColumn[declared.column] = naming
            }
        }
        return byColumn
    }

    /// A stored record's values as the review shows them beside a row's, by the import's fields (references by name).
    func storedValues(_ db: Database, id: UUID) throws -> [ImportField: String] {
        /// The query's columns, each named after a field and read as text.
        func text(_ sql: String) throws -> [ImportField: String] {
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [id.databaseText]) else { return [:] }
            var values: [ImportField: String] = [:]
            for column in row.columnNames {
                if let field = ImportField(rawValue: column) { values[field] = (row[column] as String?) ?? "" }
            }
            return values
        }
        switch self {
        case .participants:
            return try text("""
                SELECT p.name, p.email, coalesce(p.phone, '') AS phone, coalesce(p.notes, '') AS notes, coalesce(v.name, '') AS home_venue
                FROM participants p LEFT JOIN venues v ON v.id = p.\(Participant.homeVenueColumn) WHERE p.id = ?
                """)
        case .venues:
            var values = try text("""
                SELECT v.name, v.address, a.name AS area, coalesce(CAST(v.latitude AS TEXT), '') AS latitude,
                coalesce(CAST(v.longitude AS TEXT), '') AS longitude,
                coalesce(v.venue_type, '') AS venue_type FROM venues v JOIN geographic_areas a ON a.id = v.geographic_area_id WHERE v.id = ?
                """)
            values[.venueType] = values[.venueType].flatMap(VenueType.init(rawValue:))?.label ?? ""
            return values
        case .activities:
            var values = try text("""
                SELECT a.name, coalesce(a.description, '') AS description, t.name AS activity_type, a.start_date, coalesce(a.end_date, '') AS end_date,
                a.status, (SELECT group_concat(v.name, '; ') FROM activity_venue_history h JOIN venues v ON v.id = h.venue_id
                           WHERE h.activity_id = a.id AND h.effective_to IS NULL) AS venues
                FROM activities a JOIN activity_types t ON t.id = a.activity_type_id WHERE a.id = ?
                """)
            values[.status] = values[.status].flatMap(ActivityStatus.init(rawValue:))?.label ?? ""
            return values
        case .areas:
            var values = try text("""
                SELECT a.name, a.area_type, coalesce(p.name, '') AS parent FROM geographic_areas a
                LEFT JOIN geographic_areas p ON p.id = a.parent_id WHERE a.id = ?
                """)
            values[.areaType] = values[.areaType].flatMap(AreaType.init(rawValue:))?.label ?? ""
            return values
        case .assignments:
            return try text("""
                SELECT t.name AS activity, p.name AS participant, r.name AS role, s.assigned_at FROM assignments s
                JOIN activities t ON t.id = s.activity_id JOIN participants p ON p.id = s.participant_id
                JOIN participant_roles r ON r.id = s.role_id WHERE s.id = ?
                """)
        }
    }

    /// The importer of the job's rows; `leavingOut`: rows of these decisions add nothing other rows may name.
    /// `creating`: the records the rows name that the import creates when they are not here.
    func importer(_ db: Database, job: UUID, mapping: ImportMapping, leavingOut: Set<ImportDecision> = [],
                  creating: ImportCreating = ImportCreating()) throws -> RowImporter {
        switch self {
        case .participants: try ParticipantImporter(db, creating: creating)
        case .venues: try VenueImporter(db, creating: creating)
        case .activities: try ActivityImporter(db, creating: creating)
        case .areas: try AreaImporter(db, job: job, mapping: mapping, leavingOut: leavingOut)
        case .assignments: try AssignmentImporter(db, creating: creating)
        }
    }
}

extension ImportField {
    /// The entity of the record the field names, by its name or Fieldbook id; nil for a field that holds a value.
    var namedEntity: String? {
        switch self {
        case .homeVenue, .venues: Venue.kind.entity
        case .area, .parent, .homeVenueArea: GeographicArea.kind.entity
        case .activityType: Category.kind(.activityType).entity
        case .activity: Activity.kind.entity
        case .participant: Participant.kind.entity
        case .role: Category.kind(.participantRole).entity
        default: nil
        }
    }
}

/// A validation error's problems, the form's field names turned into the import's.
func problems(of check: () throws -> Void, renaming names: [String: ImportField] = [:]) -> [FieldError] {
    do {
        try check()
        return []
    } catch let errors as ValidationError {
        return errors.fieldErrors.map { FieldError(field: names[$0.field]?.rawValue ?? $0.field, message: $0.message) }
    } catch {
        return [FieldError(field: "name", message: "\(error)")]
    }
}

/// Participants name their home venue by name (and address, when two venues share a name). A home venue that is not
/// here is created on request from the row's name, address and area (its path).
struct ParticipantImporter: InputImporter {
    typealias Record = Participant
    typealias Extra = Void
    var venues: NamedRecords
    /// The areas a home venue the import creates may be in.
    var areas: NamedRecords
    let areaType: AreaType?
    let fieldsByColumn = ImportTarget.participants.fieldsByColumn

    init(_ db: Database, creating: ImportCreating) throws {
        venues = try NamedRecords(db, table: "venues", noun: "venue", detail: "address", tellingApart: "its address")
        venues.missing = MissingNames(.homeVenue, creating: creating)
        areas = try AreaTree(db).named
        areas.missing = MissingNames(.homeVenueArea, creating: creating)
        areaType = creating.areaType
    }

    var missingNames: [MissingNames] { [venues.missing!, areas.missing!] }

    /// What a home venue the import creates needs beyond its name: its address and area, in the row.
    private func venueProblems(_ row: ImportedRow, _ venue: ResolvedName) -> [FieldError] {
        guard venue.isMissing || venue.isPlanned else { return [] }
        let area = areas.resolve(row[.homeVenueArea])
        guard venue.isPlanned else { return [] }
        var problems: [FieldError] = []
        if row[.homeVenueAddress].isEmpty {
            problems.append(FieldError(field: ImportField.homeVenueAddress.rawValue, message: "Give the address of “\(row[.homeVenue])”: the import creates the venue with it"))
        }
        if row[.homeVenueArea].isEmpty {
            problems.append(FieldError(field: ImportField.homeVenueArea.rawValue, message: "Give the area of “\(row[.homeVenue])” (its path, such as “World / Kenya / Nairobi”): the import creates the venue in it"))
        }
        return problems + area.problems(.homeVenueArea)
    }

    func createReferences(_ transaction: RecordTransaction, _ row: ImportedRow) throws {
        let venue = venues.resolve(row[.homeVenue], detail: row[.homeVenueAddress])
        guard venue.isPlanned, let missing = venues.missing else { return }
        try missing.ensure(venue.id) {
            let area = try areas.missing!.area(row[.homeVenueArea], stored: areas, type: areaType, transaction)
            let input = VenueInput(name: row[.homeVenue], address: row[.homeVenueAddress], areaId: area)
            try transaction.create(Venue.self, input.validated(), id: UUID(uuidString: venue.id)!)
        }
    }

    private func input(_ row: ImportedRow, homeVenueId: String, over stored: FieldTexts<Participant>?) -> ParticipantInput {
        ParticipantInput(row.texts(Participant.declaration, references: [Participant.declaration.column(\.homeVenueId): homeVenueId], over: stored))
    }

    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError] {
        let venue = venues.resolve(row[.homeVenue], detail: row[.homeVenueAddress])
        let input = input(row, homeVenueId: venue.id, over: try id.flatMap { try current(db, id: $0) }?.texts)
        return venue.problems(.homeVenue) + venueProblems(row, venue) + Storage.problems(of: { _ = try input.validated() }, renaming: fieldsByColumn)
    }

    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?) {
        (row[.email].isEmpty ? nil : row[.email].lowercased(), row.name.isEmpty ? nil : SearchText.fold(row.name))
    }

    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)? {
        if let email = strong, let id = try String.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM participants WHERE email = ? COLLATE NOCASE ORDER BY created_at LIMIT 1
            """), arguments: [email]) { return (.sameKey, id) }
        // The folded name is search_text's first field: a range of its index.
        if let name = weak, let id = try String.fetchOne(db.cachedStatement(sql: """
            SELECT id FROM participants WHERE search_text >= ? AND search_text < ? ORDER BY created_at LIMIT 1
            """), arguments: [name + SearchText.separator, name + "\u{20}"]) { return (.sameName, id) }
        return nil
    }

    func checkedInput(_ row: ImportedRow, over stored: (texts: FieldTexts<Participant>, extra: Void)?) throws -> ParticipantInput.Valid {
        try input(row, homeVenueId: venues.checked(row[.homeVenue], .homeVenue, detail: row[.homeVenueAddress]), over: stored?.texts).validated()
    }
}

/// The stored records of a kind by their import keys, oldest first (a key names the first record that has it), for
/// kinds whose key has no index to look it up by: read once per import.
struct KeyedRecords {
    private var byStrong: [String: String] = [:]
    private var byWeak: [String: String] = [:]

    /// `sql` selects `id` and the columns `keys` reads, oldest first.
    init(_ db: Database, sql: String, keys: (Row) -> (strong: String, weak: String)) throws {
        self.init(try Row.fetchAll(db, sql: sql).map { row in
            let key = keys(row)
            return (row["id"], key.strong, key.weak)
        })
    }

    /// Records and their keys, oldest first.
    init(_ records: [(id: String, strong: String, weak: String)]) {
        for (id, strong, weak) in records {
            if byStrong[strong] == nil { byStrong[strong] = id }
            if byWeak[weak] == nil { byWeak[weak] = id }
        }
    }

    func stored(strong: String?, weak: String?) -> (reason: ImportMatchReason, id: String)? {
        if let key = strong, let id = byStrong[key] { return (.sameKey, id) }
        if let name = weak, let id = byWeak[name] { return (.sameName, id) }
        return nil
    }
}

/// Venues match by name and address (the same place), or by name alone (possibly the same).
struct VenueImporter: InputImporter {
    typealias Record = Venue
    typealias Extra = Void
    var areas: NamedRecords
    let areaType: AreaType?
    private let stored: KeyedRecords
    private let fieldsByColumn = ImportTarget.venues.fieldsByColumn

    init(_ db: Database, creating: ImportCreating) throws {
        areas = try AreaTree(db).named
        areas.missing = MissingNames(.area, creating: creating)
        areaType = creating.areaType
        stored = try KeyedRecords(db, sql: "SELECT id, name, address FROM venues ORDER BY created_at") { row in
            let name = SearchText.fold(row["name"])
            return (name + SearchText.separator + SearchText.fold(row["address"]), name)
        }
    }

    private func input(_ row: ImportedRow, areaId: String, over stored: FieldTexts<Venue>?) -> VenueInput {
        VenueInput(row.texts(Venue.declaration, references: [Venue.declaration.column(\.areaId): areaId], over: stored))
    }

    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError] {
        let area = areas.resolve(row[.area])
        let input = input(row, areaId: area.id, over: try id.flatMap { try current(db, id: $0) }?.texts)
        return area.problems(.area) + Storage.problems(of: { _ = try input.validated() }, renaming: fieldsByColumn)
    }

    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?) {
        let name = SearchText.fold(row[.name])
        return (name.isEmpty ? nil : name + SearchText.separator + SearchText.fold(row[.address]), name.isEmpty ? nil : name)
    }

    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)? {
        stored.stored(strong: strong, weak: weak)
    }

    var missingNames: [MissingNames] { [areas.missing!] }

    func createReferences(_ transaction: RecordTransaction, _ row: ImportedRow) throws {
        guard areas.resolve(row[.area]).isPlanned else { return }
        _ = try areas.missing!.area(row[.area], stored: areas, type: areaType, transaction)
    }

    func checkedInput(_ row: ImportedRow, over stored: (texts: FieldTexts<Venue>, extra: Void)?) throws -> VenueInput.Valid {
        try input(row, areaId: areas.checked(row[.area], .area), over: stored?.texts).validated()
    }
}

/// Activities match by name and start date (the same activity), or by name alone (possibly the same).
struct ActivityImporter: InputImporter {
    typealias Record = Activity
    /// The venues it is held at now.
    typealias Extra = [String]
    var types: NamedRecords
    let venues: NamedRecords
    private let stored: KeyedRecords
    /// The form's venues are no column of the kind (they are venue periods): its problems name them `venue_ids`.
    private let fieldsByColumn = ImportTarget.activities.fieldsByColumn.merging(["venue_ids": .venues]) { declared, _ in declared }

    init(_ db: Database, creating: ImportCreating) throws {
        types = try NamedRecords(db, table: "activity_types", noun: "activity type")
        types.missing = MissingNames(.activityType, creating: creating)
        venues = try NamedRecords(db, table: "venues", noun: "venue")
        stored = try KeyedRecords(db, sql: "SELECT id, name, start_date FROM activities ORDER BY created_at") { row in
            let name = SearchText.fold(row["name"])
            return (name + SearchText.separator + (row["start_date"] as String), name)
        }
    }

    private func venueIds(_ row: ImportedRow) -> (ids: [String], problems: [FieldError]) {
        let resolved = row.list(.venues).map { venues.resolve($0) }
        return (resolved.map(\.id), resolved.flatMap { $0.problems(.venues) })
    }

    /// Finite when the merged values have an end date; a row's venues replace the stored ones, none keeps them.
    private func input(_ row: ImportedRow, typeId: String, venueIds: [String], over stored: (texts: FieldTexts<Activity>, extra: [String])?) -> ActivityInput {
        let texts = row.texts(Activity.declaration, references: [Activity.declaration.column(\.typeId): typeId], over: stored?.texts)
        return ActivityInput(texts, duration: texts[\.endDate].isEmpty ? "ongoing" : "finite",
                             venueIds: venueIds.isEmpty ? stored?.extra ?? [] : venueIds)
    }

    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError] {
        let type = types.resolve(row[.activityType]), venues = venueIds(row)
        let input = input(row, typeId: type.id, venueIds: venues.ids.filter { !$0.isEmpty }, over: try id.flatMap { try current(db, id: $0) })
        return type.problems(.activityType) + venues.problems + Storage.problems(of: { _ = try input.validated() }, renaming: fieldsByColumn)
    }

    /// A stored activity's texts, with the venues it is held at now.
    func current(_ db: Database, id: UUID) throws -> (texts: FieldTexts<Activity>, extra: [String])? {
        guard let stored = try Activity.fetchOne(db, key: id.databaseText) else { return nil }
        return (FieldTexts(Activity.declaration, record: stored), try PeriodRow.open(db, .activity, of: id).map { $0.venueId.databaseText })
    }

    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?) {
        let name = SearchText.fold(row[.name])
        let start = CalendarDate(row[.startDate])?.description ?? row[.startDate]
        return (name.isEmpty ? nil : name + SearchText.separator + start, name.isEmpty ? nil : name)
    }

    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)? {
        stored.stored(strong: strong, weak: weak)
    }

    private func checkedVenues(_ row: ImportedRow) throws -> [String] {
        try row.list(.venues).map { try venues.checked($0, .venues) }
    }

    var missingNames: [MissingNames] { [types.missing!] }

    func createReferences(_ transaction: RecordTransaction, _ row: ImportedRow) throws {
        let type = types.resolve(row[.activityType])
        if type.isPlanned { try types.missing!.category(.activityType, type.id, transaction) }
    }

    func checkedInput(_ row: ImportedRow, over stored: (texts: FieldTexts<Activity>, extra: [String])?) throws -> ActivityInput.Valid {
        try input(row, typeId: types.checked(row[.activityType], .activityType), venueIds: checkedVenues(row), over: stored).validated()
    }
}
