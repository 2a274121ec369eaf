import Domain
import Foundation
import Records
import GRDB
import Translations

/// Participants who share an email address or a name: maybe one person recorded more than once.
public struct DuplicateGroup: Sendable, Equatable {
    public let reason: PossibleDuplicate.Reason
    /// How many share it.
    public let count: Int
    /// The first of them, oldest first (the oldest is the one a merge suggests keeping).
    public let members: [PossibleDuplicate]
}

/// One person recorded twice, made one: each field's value comes from the record `fromRemoved` names, `kept`'s
/// otherwise. Which record stays is the rule's (`ParticipantMergeInput.survivor`), so that the same merge made on two
/// Fieldbooks keeps the same one; the merge form offers the pair that way round.
public struct ParticipantMerge: Sendable, Equatable {
    public typealias Field = ParticipantMergeInput.Field

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
    /// Groups of participants with the same email (case ignored), then groups with the same name (accents and case
    /// ignored), a page of groups at a time, with their first `shown` members. Records synced in from other nodes are
    /// grouped like any. Both groupings read an index whole.
    public func duplicateGroups(page: PageRequest, shown: Int = 10) throws -> ListPage<DuplicateGroup> {
        try read { db in
            let groups = """
                SELECT 0 AS by_name, email AS shared, COUNT(*) AS count FROM participants GROUP BY email COLLATE NOCASE HAVING COUNT(*) > 1
                UNION ALL
                SELECT 1, substr(search_text, 1, instr(search_text || char(31), char(31)) - 1), COUNT(*) FROM participants
                GROUP BY 2 HAVING COUNT(*) > 1
                """
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(groups))") ?? 0
            let rows = try Row.fetchAll(db, sql: "\(groups) ORDER BY by_name, shared LIMIT ? OFFSET ?", arguments: [page.perPage, page.offset])
            let items = try rows.map { row -> DuplicateGroup in
                let byName = row["by_name"] == 1, shared: String = row["shared"]
                let members = byName
                    ? try Row.fetchAll(db.cachedStatement(sql: """
                        SELECT id, name, email FROM participants WHERE search_text >= ? AND search_text < ? ORDER BY created_at, id LIMIT ?
                        """), arguments: [shared + SearchText.separator, shared + "\u{20}", shown])
                    : try Row.fetchAll(db.cachedStatement(sql: """
                        SELECT id, name, email FROM participants WHERE email = ? COLLATE NOCASE ORDER BY created_at, id LIMIT ?
                        """), arguments: [shared, shown])
                let reason: PossibleDuplicate.Reason = byName ? .sameName : .sameEmail
                return DuplicateGroup(reason: reason, count: row["count"], members: members.map { Self.duplicate($0, reason) })
            }
            return ListPage(items: items, total: total, request: page)
        }
    }

    /// The participant a merged-away record's merges lead to, or nil when `id` was never merged away (or its survivor
    /// is gone too).
    public func mergeSurvivor(of id: UUID) throws -> Participant? {
        try read { db in try db.mergeSurvivor(of: id).flatMap { try Participant.fetchOne(db, key: $0.databaseText) } }
    }

    /// Makes two records of one person one, in one transaction through the writers (so a linked node pushes it). The
    /// record `ParticipantMergeInput.survivor` names stays, whichever the merge calls kept, and takes the chosen values
    /// (which must pass the participant rules); the other's assignments, visit stops, photos and address history move
    /// to it (an assignment the survivor already has in the same role is dropped); the merge is recorded
    /// (`ParticipantMergeRow`), then the other record is deleted. Returns the survivor.
    @discardableResult
    public func mergeParticipants(_ merge: ParticipantMerge, by actor: Actor) throws -> Participant {
        try transaction(by: actor) { try $0.mergeParticipants(merge) }
    }
}

extension RecordTransaction {
    func mergeParticipants(_ merge: ParticipantMerge) throws -> Participant {
        guard merge.kept != merge.removed else { throw ValidationError.clash("with", "Choose two different participants to merge") }
        let kept = try fetch(Participant.self, id: merge.kept)
        // The record merged in is named in the body, not the address: its absence is a clash there (409), not a 404.
        try ensureExists(merge.removed, in: Participant.databaseTableName, field: "with", Message("No participant has this id; they may have been merged or deleted already"))
        let removed = try fetch(Participant.self, id: merge.removed)
        try ensureCurrent(kept, expected: merge.keptVersion)
        try ensureCurrent(removed, expected: merge.removedVersion)
        func pick<Value>(_ field: ParticipantMerge.Field, _ value: (Participant) -> Value) -> Value {
            value(merge.fromRemoved.contains(field) ? removed : kept)
        }
        let valid = try ParticipantInput(name: pick(.name, \.name), email: pick(.email, \.email), phone: pick(.phone, \.phone) ?? "",
                                         notes: pick(.notes, \.notes) ?? "", homeVenueId: pick(.home, \.homeVenueId)?.uuidString ?? "").validated()
        // The chosen values go to the record the rule keeps, whichever way round the merge was asked for.
        let (survivor, gone) = ParticipantMergeInput.survivor(of: kept.id, removed.id) == kept.id ? (kept, removed) : (removed, kept)
        try moveRecords(of: gone, to: survivor, home: valid.homeVenueId)
        let saved = try save(survivor.edited(by: valid), over: survivor)
        // After the moves and before the deletion, so a hub takes the node's own moves first and the merge then
        // completes whatever the node did not know of (`HubDecider.completeMerge`).
        try insert(ParticipantMergeRow(removed: gone, survivor: survivor.id))
        try delete(gone)
        return saved
    }

    /// Moves what refers to `removed` over to `kept`, whose home becomes `home`.
    private func moveRecords(of removed: Participant, to kept: Participant, home: UUID?) throws {
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
        try movePhotos(of: removed.id, to: kept.id)
        try moveAddressHistory(of: removed, to: kept, home: home)
    }

    /// The kept record's address history wins where the two disagree: each of the removed record's periods keeps only
    /// the days none of the kept record's periods covers (the part before the first overlap, or after it), and moves
    /// over; a period left with no day is dropped. A moved open period is closed today unless it carries the chosen
    /// home on. Then the history agrees with the chosen home as a move would leave it: at most one open period.
    private func moveAddressHistory(of removed: Participant, to kept: Participant, home: UUID?) throws {
        let keptPeriods = try PeriodRow.all(db, .participant, of: kept.id)
        let today = CalendarDate.today()
        var carriesHome = false
        for period in try PeriodRow.all(db, .participant, of: removed.id) {
            guard var moved = period.trimmed(outside: keptPeriods) else {
                try delete(period)
                continue
            }
            moved.ownerId = kept.id
            if moved.effectiveTo == nil {
                if period.venueId == home, home != kept.homeVenueId { carriesHome = true } else { moved.effectiveTo = max(today, moved.effectiveFrom) }
            }
            try save(moved, over: period)
        }
        if home != kept.homeVenueId, !carriesHome { try moveHome(of: kept.id, to: home, from: today) }
    }
}

extension PeriodRow {
    /// This period less the days `others` cover: the part before the first of them it overlaps, or the part after;
    /// nil when no day is left.
    func trimmed(outside others: [PeriodRow]) -> PeriodRow? {
        var rest = self
        for other in others.sorted(by: { $0.effectiveFrom < $1.effectiveFrom }) where rest.overlaps(other) {
            if rest.effectiveFrom < other.effectiveFrom {
                rest.effectiveTo = other.effectiveFrom
            } else if let end = other.effectiveTo, rest.effectiveTo.map({ $0 > end }) ?? true {
                rest.effectiveFrom = end
            } else {
                return nil
            }
        }
        return rest.effectiveTo.map { $0 > rest.effectiveFrom } ?? true ? rest : nil
    }

    /// Whether the two periods share a day (each runs from its first day up to, not including, its end; an empty one
    /// shares none).
    func overlaps(_ other: PeriodRow) -> Bool {
        func endsAfter(_ day: CalendarDate, _ end: CalendarDate?) -> Bool { end.map { $0 > day } ?? true }
        return endsAfter(other.effectiveFrom, effectiveTo) && endsAfter(effectiveFrom, other.effectiveTo)
            && endsAfter(effectiveFrom, effectiveTo) && endsAfter(other.effectiveFrom, other.effectiveTo)
    }
}
