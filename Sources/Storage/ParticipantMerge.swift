import Domain
import Foundation
import GRDB

/// Two participants who may be one person, for the list of possible duplicates.
public struct DuplicatePair: Sendable, Equatable {
    public let first: PossibleDuplicate
    public let second: PossibleDuplicate
}

/// One person recorded twice, made one: `kept` stays, `removed` goes; each field's value comes from the record
/// `fromRemoved` names, the kept record's otherwise.
public struct ParticipantMerge: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case name, email, phone, notes, home = "home_venue_id"
    }

    public let kept: UUID
    public let removed: UUID
    public var fromRemoved: Set<Field>
    /// The versions the person compared (a merge refuses records changed since: 409).
    public var keptVersion: Int?
    public var removedVersion: Int?

    public init(kept: UUID, removed: UUID, fromRemoved: Set<Field> = [], keptVersion: Int? = nil, removedVersion: Int? = nil) {
        (self.kept, self.removed, self.fromRemoved, self.keptVersion, self.removedVersion) = (kept, removed, fromRemoved, keptVersion, removedVersion)
    }
}

extension AppDatabase {
    /// Pairs of participants with the same email (case ignored), then pairs with the same name (accents and case
    /// ignored), a page at a time, each pair once. Records synced in from other nodes are listed like any.
    public func duplicatePairs(page: PageRequest) throws -> ListPage<DuplicatePair> {
        try read { db in
            let emailPairs = """
                SELECT a.id AS a_id, a.name AS a_name, a.email AS a_email, b.id AS b_id, b.name AS b_name, b.email AS b_email,
                       0 AS by_name, a.name AS sort_name FROM participants a
                JOIN participants b ON b.email = a.email COLLATE NOCASE AND b.id > a.id
                """
            // The first field of search_text is the folded name.
            let folded = "substr(%@.search_text, 1, instr(%@.search_text || char(31), char(31)) - 1)"
            let namePairs = """
                SELECT a.id, a.name, a.email, b.id, b.name, b.email, 1, a.name FROM participants a
                JOIN participants b ON b.search_text >= \(String(format: folded, "a", "a")) || char(31)
                 AND b.search_text < \(String(format: folded, "a", "a")) || char(32) AND b.id > a.id
                WHERE b.email <> a.email COLLATE NOCASE
                """
            let all = "\(emailPairs) UNION ALL \(namePairs)"
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(all))") ?? 0
            let rows = try Row.fetchAll(db, sql: "\(all) ORDER BY by_name, sort_name COLLATE NOCASE, a_id, b_id LIMIT ? OFFSET ?",
                                        arguments: [page.perPage, page.offset])
            let pairs = rows.map { row -> DuplicatePair in
                let reason: PossibleDuplicate.Reason = row["by_name"] == 1 ? .sameName : .sameEmail
                return DuplicatePair(
                    first: PossibleDuplicate(id: row.uuid("a_id"), name: row["a_name"], email: row["a_email"], reason: reason),
                    second: PossibleDuplicate(id: row.uuid("b_id"), name: row["b_name"], email: row["b_email"], reason: reason))
            }
            return ListPage(items: pairs, total: total, request: page)
        }
    }

    /// Makes two records of one person one, in one transaction through the writers (so a linked node pushes it): the
    /// kept record takes the chosen values (which must pass the participant rules), the removed one's assignments,
    /// visit stops and address history move to it (an assignment the kept record already has in the same role is
    /// dropped), then the removed record is deleted.
    @discardableResult
    public func mergeParticipants(_ merge: ParticipantMerge, by actor: Actor) throws -> Participant {
        try transaction(by: actor) { try $0.mergeParticipants(merge) }
    }
}

extension RecordTransaction {
    func mergeParticipants(_ merge: ParticipantMerge) throws -> Participant {
        guard merge.kept != merge.removed else { throw ValidationError.clash("participant_id", "Choose two different participants to merge") }
        let kept = try fetch(Participant.self, id: merge.kept), removed = try fetch(Participant.self, id: merge.removed)
        try ensureCurrent(kept, expected: merge.keptVersion)
        try ensureCurrent(removed, expected: merge.removedVersion)
        func pick<Value>(_ field: ParticipantMerge.Field, _ value: (Participant) -> Value) -> Value {
            value(merge.fromRemoved.contains(field) ? removed : kept)
        }
        let valid = try ParticipantInput(name: pick(.name, \.name), email: pick(.email, \.email), phone: pick(.phone, \.phone) ?? "",
                                         notes: pick(.notes, \.notes) ?? "", homeVenueId: pick(.home, \.homeVenueId)?.uuidString ?? "").validated()
        let movesHome = valid.homeVenueId != kept.homeVenueId
        try moveRecords(of: removed, to: kept, keepingRemovedHome: movesHome)
        var edited = kept
        (edited.name, edited.email, edited.phone, edited.notes, edited.homeVenueId) = (valid.name, valid.email, valid.phone, valid.notes, valid.homeVenueId)
        let saved = try save(edited, over: kept)
        try delete(removed)
        return saved
    }

    /// Moves what refers to `removed` over to `kept`. Address periods move as history: the removed record's open period
    /// stays open only when its home becomes the kept record's (the kept one's open period then closes today).
    private func moveRecords(of removed: Participant, to kept: Participant, keepingRemovedHome: Bool) throws {
        let owned = try Set(AssignmentRow.fetchAll(db, sql: "SELECT * FROM assignments WHERE participant_id = ?",
                                                   arguments: [kept.id.databaseText]).map { "\($0.activityId) \($0.roleId)" })
        for assignment in try AssignmentRow.fetchAll(db, sql: "SELECT * FROM assignments WHERE participant_id = ?",
                                                     arguments: [removed.id.databaseText]) {
            if owned.contains("\(assignment.activityId) \(assignment.roleId)") { try delete(assignment); continue }
            var moved = assignment
            moved.participantId = kept.id
            try save(moved, over: assignment)
        }
        for stop in try VisitStop.fetchAll(db, sql: "SELECT * FROM visit_stops WHERE participant_id = ?", arguments: [removed.id.databaseText]) {
            var moved = stop
            moved.participantId = kept.id
            try save(moved, over: stop)
        }
        let today = CalendarDate.today()
        let closing = keepingRemovedHome ? kept : removed
        for period in try PeriodRow.open(db, .participant, of: closing.id) { try close(period, on: today) }
        for period in try PeriodRow.all(db, .participant, of: removed.id) {
            var moved = period
            moved.ownerId = kept.id
            try save(moved, over: period)
        }
    }
}
