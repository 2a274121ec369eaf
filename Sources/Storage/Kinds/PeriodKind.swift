import Domain
import Foundation
import GRDB
import Records

/// Address periods and activity venue periods as GRDB reads and encodes them, from their kinds' declarations; the
/// owner column a row holds tells the two apart.
extension PeriodRow: SyncedRecord, FetchableRecord {
    var recordKind: RecordKind { owner.kind }

    package init(row: Row) {
        self = (row.hasColumn(Owner.participant.column) ? Owner.participant : .activity).declaration.record(row)
    }

    package func encode(to container: inout PersistenceContainer) {
        owner.declaration.encode(self, id: id, version: version, to: &container)
    }

    func storedRow() -> [String: DatabaseValue] { owner.declaration.row(of: self, id: id, version: version) }

    func referencedIds() -> [(field: FieldDeclaration, id: UUID)] { owner.declaration.referencedIds(of: self) }

    /// One period by id, as stored now.
    static func fetchOne(_ db: Database, key id: String, kind owner: Owner) throws -> PeriodRow? {
        try PeriodRow.fetchOne(db, sql: "SELECT * FROM \(owner.kind.table) WHERE id = ?", arguments: [id])
    }

    /// Every period of the owner, earliest first.
    static func all(_ db: Database, _ owner: Owner, of ownerId: UUID) throws -> [PeriodRow] {
        // Cached, as is `open`: every write of a participant's home reads their periods.
        try PeriodRow.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM \(owner.kind.table) WHERE \(owner.column) = ? ORDER BY \(owner.declaration.column(\.effectiveFrom)), id
            """), arguments: [ownerId.databaseText])
    }

    /// The owner's periods still open.
    static func open(_ db: Database, _ owner: Owner, of ownerId: UUID) throws -> [PeriodRow] {
        try PeriodRow.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM \(owner.kind.table) WHERE \(owner.column) = ? AND \(owner.declaration.column(\.effectiveTo)) IS NULL
            """), arguments: [ownerId.databaseText])
    }
}

extension RecordTransaction {
    /// Ends an open period on `date` (never before it began).
    func close(_ period: PeriodRow, on date: CalendarDate) throws {
        var closed = period
        closed.effectiveTo = max(date, period.effectiveFrom)
        try save(closed, over: period)
    }

    /// Makes the participant's open address periods agree with their home venue again (`AddressPeriodReconciliation`).
    func reconcileAddressPeriods(of participant: UUID) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Participant.homeVenueColumn) FROM participants WHERE id = ?",
                                         arguments: [participant.databaseText])
        else { return }
        let home = (row[0] as String?).flatMap(UUID.init(uuidString:))
        let open = try PeriodRow.open(db, .participant, of: participant)
        let byId = Dictionary(uniqueKeysWithValues: open.map { ($0.id, $0) })
        let steps = AddressPeriodReconciliation.steps(open: open.map { .init(id: $0.id, venueId: $0.venueId, from: $0.effectiveFrom) }, home: home)
        for step in steps {
            switch step {
            case .close(let id, let date): try close(byId[id]!, on: date)
            case .remove(let id): try delete(byId[id]!)
            }
        }
    }

    /// Makes `venue` (or no venue) the participant's home from `date` on, as the person editing states it, also for a
    /// date before the current period began: periods starting on or after `date` never applied and are removed, the one
    /// covering `date` ends there, and the new one opens. So periods never overlap, no gap appears that was not asked
    /// for (removing the home leaves one), and exactly one is open while there is a home.
    /// A move back to the venue of the period ending on `date` continues that period rather than starting another.
    func moveHome(of participant: UUID, to venue: UUID?, from date: CalendarDate) throws {
        var endingOnDate: PeriodRow?
        for period in try PeriodRow.all(db, .participant, of: participant) {
            if period.effectiveFrom >= date {
                try delete(period)
                continue
            }
            if period.effectiveTo.map({ $0 > date }) ?? true {
                try close(period, on: date)
            }
            // After a gap (the home removed earlier) the move starts a new period.
            endingOnDate = period.effectiveTo.map { $0 >= date } ?? true ? period : nil
        }
        guard let venue else { return }
        if let before = endingOnDate, before.venueId == venue, let stored = try PeriodRow.fetchOne(db, key: before.id.databaseText, kind: .participant) {
            var reopened = stored
            reopened.effectiveTo = nil
            try save(reopened, over: stored)
        } else {
            try insert(PeriodRow(owner: .participant, ownerId: participant, venueId: venue, from: date))
        }
    }
}
