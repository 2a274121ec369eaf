import Domain
import Foundation
import GRDB
import Records

// The record types GRDB reads and encodes, each from its kind's declaration (`StoredRecord`). Writes go through
// `RecordTransaction` (not PersistableRecord), so every row written records its change.

extension Participant: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }

    /// The column naming a participant's home venue, for SQL that joins or filters by it.
    static let homeVenueColumn = declaration.column(\.homeVenueId)
}

extension GeographicArea: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }
}

extension Venue: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }
}

extension Activity: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }

    /// A row's dates and status, as the list's lighter row (`ActivityListRow`) reads them.
    static func schedule(start: String, end: String?, status: String) -> (start: CalendarDate, end: CalendarDate?, status: ActivityStatus) {
        (CalendarDate(start) ?? .unreadable, end.flatMap(CalendarDate.init), ActivityStatus(rawValue: status) ?? .active)
    }
}

extension VisitList: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }
}

extension Photo: StoredRecord {
    mutating func stamp(editedAt date: Date) { updatedAt = date }
}

extension UserRow: StoredRecord {
    mutating func stamp(editedAt date: Date) { user.updatedAt = date }
}

extension VisitStop: StoredRecord {}
extension ContactLog: StoredRecord {}
extension AssignmentRow: StoredRecord {}
extension NotificationRow: StoredRecord {}
extension NotificationPreferences: StoredRecord {}
extension ParticipantMergeRow: StoredRecord {}

/// Activity types and participant roles: one record type, two kinds (one table each). GRDB's table name is per type,
/// so categories are read with `init(row:kind:)` rather than FetchableRecord.
extension Category: EncodableRecord, SyncedRecord {
    init(row: Row, kind: CategoryKind) { self = Self.declaration(kind).record(row) }

    public func encode(to container: inout PersistenceContainer) {
        Self.declaration(kind).encode(self, id: id, version: version, to: &container)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }

    func storedRow() -> [String: DatabaseValue] { Self.declaration(kind).row(of: self, id: id, version: version) }

    func referencedIds() -> [(field: FieldDeclaration, id: UUID)] { Self.declaration(kind).referencedIds(of: self) }
}
