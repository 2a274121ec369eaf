import Domain
import Foundation
import GRDB

/// One table whose rows travel between nodes: its entity name on the wire, its synced columns, and the checks a hub
/// runs before accepting a pushed change to it (the same validation the pages use).
struct SyncedTable: Sendable {
    let entity: String
    let table: String
    /// Columns a change may set (the wire's field names).
    let columns: [String]
    /// Columns carried verbatim from the hub so every node holds the same values (never pushed as edits).
    let metaColumns: [String]
    /// Who may change rows of this table.
    let requiredRole: UserRole
    /// Recomputes derived search columns after a row is written from the wire.
    let searchText: (@Sendable ([String: JSONValue]) -> String)?
    /// Throws a ValidationError when the row's values would not pass the page's form.
    let validate: @Sendable (Database, UUID, [String: JSONValue]) throws -> Void

    static let all: [SyncedTable] = [
        category(.activityType), category(.participantRole), area, venue, participant, participantAddress, activity,
        activityVenue, assignment, user,
    ]

    private static let byEntity: [String: SyncedTable] = Dictionary(uniqueKeysWithValues: all.map { ($0.entity, $0) })

    static func named(_ entity: String) -> SyncedTable? { byEntity[entity] }

    /// The kind of record in words, for messages ("participant address").
    var noun: String { entity.replacingOccurrences(of: "_", with: " ") }

    /// Throws a ValidationError when the row would not pass the page's form, or when a text holds U+0000 (`containsNUL`).
    func check(_ db: Database, _ id: UUID, _ fields: [String: JSONValue]) throws {
        let withNUL = fields.filter { if case .string(let text) = $0.value { text.containsNUL } else { false } }
        if let field = withNUL.keys.sorted().first {
            throw ValidationError([FieldError(field: field, message: "Remove the NUL character (U+0000) from \(field)")])
        }
        try validate(db, id, fields)
    }

    private static let timestamps = ["created_at", "updated_at"]

    private static func category(_ kind: CategoryKind) -> SyncedTable {
        SyncedTable(entity: kind.rawValue, table: kind.table, columns: ["name"], metaColumns: ["is_predefined"] + timestamps,
                    requiredRole: .editor, searchText: nil) { _, _, fields in
            _ = try CategoryInput(name: fields.text("name")).validated(kind: kind)
        }
    }

    private static let area = SyncedTable(
        entity: "geographic_area", table: "geographic_areas", columns: ["name", "area_type", "parent_id"], metaColumns: timestamps,
        requiredRole: .editor, searchText: nil
    ) { db, id, fields in
        let valid = try AreaInput(name: fields.text("name"), areaType: fields.text("area_type"), parentId: fields.text("parent_id")).validated()
        if let parent = valid.parentId, try parent == id || AppDatabase.descendantIds(db, of: id).contains(parent) {
            throw ValidationError([FieldError(field: "parent_id", message: "An area cannot be inside itself or one of its own sub-areas")])
        }
    }

    private static let venue = SyncedTable(
        entity: "venue", table: "venues",
        columns: ["name", "address", "geographic_area_id", "latitude", "longitude", "venue_type"], metaColumns: timestamps,
        requiredRole: .editor, searchText: { SearchText.of($0.text("name"), $0.text("address")) }
    ) { _, _, fields in
        _ = try VenueInput(name: fields.text("name"), address: fields.text("address"), areaId: fields.text("geographic_area_id"),
                           latitude: fields.text("latitude"), longitude: fields.text("longitude"), venueType: fields.text("venue_type"))
            .validated()
    }

    private static let participant = SyncedTable(
        entity: "participant", table: "participants", columns: ["name", "email", "phone", "notes", "home_venue_id"],
        metaColumns: timestamps, requiredRole: .editor, searchText: { SearchText.of($0.text("name"), $0.text("email")) }
    ) { _, _, fields in
        _ = try ParticipantInput(name: fields.text("name"), email: fields.text("email"), phone: fields.text("phone"),
                                 notes: fields.text("notes"), homeVenueId: fields.text("home_venue_id")).validated()
    }

    private static let participantAddress = SyncedTable(
        entity: "participant_address", table: "participant_address_history",
        columns: ["participant_id", "venue_id", "effective_from", "effective_to"], metaColumns: [], requiredRole: .editor,
        searchText: nil
    ) { _, _, fields in try checkPeriod(fields) }

    private static let activity = SyncedTable(
        entity: "activity", table: "activities",
        columns: ["name", "description", "activity_type_id", "start_date", "end_date", "status"], metaColumns: timestamps,
        requiredRole: .editor, searchText: { SearchText.of($0.text("name")) }
    ) { _, _, fields in
        let end = fields.text("end_date")
        _ = try ActivityInput(name: fields.text("name"), description: fields.text("description"), typeId: fields.text("activity_type_id"),
                              startDate: fields.text("start_date"), duration: end.isEmpty ? "ongoing" : "finite", endDate: end,
                              status: fields.text("status")).validated()
    }

    private static let activityVenue = SyncedTable(
        entity: "activity_venue", table: "activity_venue_history",
        columns: ["activity_id", "venue_id", "effective_from", "effective_to"], metaColumns: [], requiredRole: .editor,
        searchText: nil
    ) { _, _, fields in try checkPeriod(fields) }

    private static let assignment = SyncedTable(
        entity: "assignment", table: "assignments", columns: ["activity_id", "participant_id", "role_id", "assigned_at"],
        metaColumns: [], requiredRole: .editor, searchText: nil
    ) { _, _, _ in }

    private static let user = SyncedTable(
        entity: "user", table: "users", columns: ["email", "name", "role", "password_hash", "is_disabled"], metaColumns: timestamps,
        requiredRole: .administrator, searchText: nil
    ) { _, _, fields in
        var errors = ValidationError()
        if !EmailAddress.isValid(fields.text("email")) { errors.add("email", "Enter an email address in the correct format, like name@example.org") }
        if fields.text("password_hash").isEmpty { errors.add("password_hash", "A user needs a password") }
        try errors.throwIfAny()
        _ = try UserChangeInput(name: fields.text("name"), role: fields.text("role"), isDisabled: fields["is_disabled"]?.isTrue ?? false)
            .validated()
    }

    private static func checkPeriod(_ fields: [String: JSONValue]) throws {
        let from = CalendarDate(fields.text("effective_from"))
        let toText = fields.text("effective_to")
        var errors = ValidationError()
        if from == nil { errors.add("effective_from", "Enter the date as a real day, like 2025-03-12") }
        if !toText.isEmpty, CalendarDate(toText) == nil { errors.add("effective_to", "Enter the date as a real day, like 2025-03-12") }
        try errors.throwIfAny()
    }
}

extension [String: JSONValue] {
    /// A field as form text: strings as they are, numbers written out, null and missing as empty.
    func text(_ key: String) -> String {
        switch self[key] {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "1" : "0"
        case .null, nil: ""
        }
    }
}

extension JSONValue {
    var isTrue: Bool {
        switch self {
        case .bool(let value): value
        case .int(let value): value != 0
        case .string(let value): value == "1" || value == "true"
        default: false
        }
    }

    /// How the value is stored: booleans as 0/1, as SQLite does.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let value): (value ? 1 : 0).databaseValue
        case .int(let value): value.databaseValue
        case .double(let value): value.databaseValue
        case .string(let value): value.databaseValue
        }
    }

    /// Reads a stored value; blobs are not synced.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null, .blob: self = .null
        case .int64(let value): self = .int(Int(value))
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        }
    }

    /// Two values that store the same (true equals 1; 2.0 equals 2).
    func storesSame(as other: JSONValue) -> Bool {
        databaseValue == other.databaseValue || {
            switch (self, other) {
            case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
            default: false
            }
        }()
    }
}

extension Date {
    /// The text SQLite holds for this date, so a synced timestamp compares equal on every node.
    var storedText: String { String.fromDatabaseValue(databaseValue) ?? "" }
}
