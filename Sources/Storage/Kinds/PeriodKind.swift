import Domain
import Foundation
import GRDB

/// One stored period at a venue: where a participant lived (Property 37) or where an activity was held (Property 38).
/// Both tables have the same shape, so one row type serves both kinds.
struct PeriodRow: SyncedRecord, FetchableRecord {
    /// Whose periods these are.
    enum Owner: Sendable {
        case participant, activity

        var column: String { self == .participant ? "participant_id" : "activity_id" }
        var kind: RecordKind { self == .participant ? PeriodRow.addressKind : PeriodRow.activityVenueKind }
    }

    let owner: Owner
    var id: UUID
    var ownerId: UUID
    var venueId: UUID
    var effectiveFrom: CalendarDate
    var effectiveTo: CalendarDate?
    var version: Int

    static let addressKind = RecordKind(
        entity: "participant_address", table: "participant_address_history",
        columns: ["participant_id", "venue_id", "effective_from", "effective_to"], label: ("address period", "address periods")
    ) { _, _, fields in try RecordKind.checkPeriod(fields) }

    static let activityVenueKind = RecordKind(
        entity: "activity_venue", table: "activity_venue_history",
        columns: ["activity_id", "venue_id", "effective_from", "effective_to"], label: ("venue period", "venue periods")
    ) { _, _, fields in try RecordKind.checkPeriod(fields) }

    var recordKind: RecordKind { owner.kind }

    /// A new open period.
    init(owner: Owner, ownerId: UUID, venueId: UUID, from: CalendarDate, to: CalendarDate? = nil) {
        (self.owner, id, self.ownerId, self.venueId, effectiveFrom, effectiveTo, version) = (owner, UUID(), ownerId, venueId, from, to, 1)
    }

    init(row: Row) {
        owner = row.hasColumn("participant_id") ? .participant : .activity
        id = row.uuid("id")
        ownerId = row.uuid(owner.column)
        venueId = row.uuid("venue_id")
        effectiveFrom = CalendarDate(row["effective_from"]) ?? CalendarDate("2000-01-01")!
        effectiveTo = (row["effective_to"] as String?).flatMap(CalendarDate.init)
        version = row["version"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container[owner.column] = ownerId.databaseText
        container["venue_id"] = venueId.databaseText
        container["effective_from"] = effectiveFrom.description
        container["effective_to"] = effectiveTo?.description
        container["version"] = version
    }

    /// The owner's periods still open.
    static func open(_ db: Database, _ owner: Owner, of ownerId: UUID) throws -> [PeriodRow] {
        try PeriodRow.fetchAll(db, sql: "SELECT * FROM \(owner.kind.table) WHERE \(owner.column) = ? AND effective_to IS NULL",
                               arguments: [ownerId.databaseText])
    }
}

extension RecordTransaction {
    /// Ends an open period on `date` (never before it began).
    func close(_ period: PeriodRow, on date: CalendarDate) throws {
        var closed = period
        closed.effectiveTo = max(date, period.effectiveFrom)
        try save(closed, over: period)
    }
}
