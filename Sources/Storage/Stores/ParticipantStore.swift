import Domain
import Foundation
import Records
import GRDB

/// How the participant list is searched, filtered, sorted and paged; every field comes from the query string.
public struct ParticipantQuery: Sendable, Equatable {
    /// Case-insensitive substring of the name or email (Property 3).
    public var text = ""
    /// The text matches names only: for a viewer the privacy setting hides email addresses from, whom a match on an
    /// address they guessed would otherwise tell it.
    public var textMatchesNamesOnly = false
    /// Participants whose home venue is in this area or an area inside it.
    public var areaId: UUID?
    public var home = HomeFilter.any
    public var sort = Sort.name
    public var descending = false
    public var page = PageRequest()

    /// Whether participants have a home venue.
    public enum HomeFilter: String, Sendable, CaseIterable {
        case any, withHome = "with", withoutHome = "without"
    }

    /// The orders the list offers.
    public enum Sort: String, Sendable, CaseIterable {
        case name, email, created
    }
}

extension ParticipantQuery {
    /// Every participant by name, first page; the surfaces start from it and fill it from a request (`init(reading:)` in Surface).
    public static let unfiltered = ParticipantQuery()

    /// Words search only what the viewer sees: a match on an email address they guessed would tell it.
    public mutating func searchOnlyWhatIsSeen(_ seen: ParticipantVisibility) {
        textMatchesNamesOnly = !seen.contacts
    }
}

/// A participant as listed: with their home venue's name.
public struct ParticipantListItem: Sendable, Equatable {
    public let participant: Participant
    public let homeVenueName: String?
}

/// What one row of the participant list page shows.
public struct ParticipantListRow: Sendable, Equatable {
    public let id: UUID
    public let name: String
    public let email: String
    public let phone: String?
    public let homeVenueName: String?
}

/// One activity a participant takes part in, and in which role.
public struct ParticipantAssignment: Sendable, Equatable {
    public let activityId: UUID
    public let activityName: String
    public let roleName: String
    public let status: ActivityStatus
    public let startDate: CalendarDate
    public let endDate: CalendarDate?
}

/// Participants (Requirement 4): search, filters, detail with address history, and writes that keep that history.
extension AppDatabase {
    public func participants(_ query: ParticipantQuery) throws -> ListPage<ParticipantListItem> {
        try read { db in
            let (list, order) = Self.participantList(query)
            return try list.page(db, order: order, select: "p.*, v.name AS venue_name",
                                 rowJoins: "LEFT JOIN venues v ON v.id = p.\(Participant.homeVenueColumn)", request: query.page,
                                 anchors: pageAnchors) { ParticipantListItem(participant: Participant(row: $0), homeVenueName: $0["venue_name"]) }
        }
    }

    /// The same page as `participants(_:)` with only what the list page shows, so no dates are read and decoded.
    public func participantRows(_ query: ParticipantQuery) throws -> ListPage<ParticipantListRow> {
        try read { db in
            let (list, order) = Self.participantList(query)
            return try list.page(db, order: order, select: "p.id, p.name, p.email, p.phone, v.name AS venue_name",
                                 rowJoins: "LEFT JOIN venues v ON v.id = p.\(Participant.homeVenueColumn)", request: query.page, anchors: pageAnchors) {
                // By position, as selected: no name is looked up for these rows.
                ParticipantListRow(id: $0.uuid(at: 0), name: $0[1], email: $0[2], phone: $0[3], homeVenueName: $0[4])
            }
        }
    }

    /// The filters and order of a participant list (its page and its export).
    static func participantList(_ query: ParticipantQuery) -> (ListQuery, order: String) {
        var list = ListQuery("participants p")
        list.matching(query.text, alias: "p", firstFieldOnly: query.textMatchesNamesOnly)
        list.atVenueWithin(query.areaId, venueColumn: "p.\(Participant.homeVenueColumn)")
        switch query.home {
        case .any: break
        case .withHome: list.add("p.\(Participant.homeVenueColumn) IS NOT NULL")
        case .withoutHome: list.add("p.\(Participant.homeVenueColumn) IS NULL")
        }
        let direction = query.descending ? "DESC" : "ASC"
        let order = switch query.sort {
        case .name: "p.name COLLATE NOCASE \(direction), p.id \(direction)"
        case .email: "p.email COLLATE NOCASE \(direction), p.id \(direction)"
        case .created: "p.created_at \(direction), p.id \(direction)"
        }
        return (list, order)
    }

    /// Participants whose name or email contains `text`, for pickers on other forms.
    /// The first `limit` participants matching `text`, with how many match in all.
    public func participantMatches(_ text: String, limit: Int = 20) throws -> ListPage<ParticipantListItem> {
        try participants(ParticipantQuery(text: text, page: PageRequest(page: 1, perPage: limit)))
    }

    public func participant(id: UUID) throws -> Participant {
        try read { db in try Participant.find(db, id: id) }
    }

    @discardableResult public func createParticipant(_ input: ParticipantInput, by actor: Actor) throws -> Participant { try create(input.validated(), by: actor) }
    /// Saves changes; a new home venue closes the current address-history period and opens one from `movedOn`.
    @discardableResult public func updateParticipant(id: UUID, _ input: ParticipantInput, expectedVersion: Int?, by actor: Actor) throws -> Participant {
        try update(id: id, input.validated(), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes a participant with their assignments and address history.
    public func deleteParticipant(id: UUID, by actor: Actor) throws { try remove(Participant.self, id: id, by: actor) }

    /// Where the participant has lived, newest first (Property 37).
    public func addressHistory(of participantId: UUID) throws -> [VenuePeriod] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT h.*, v.name AS venue_name FROM participant_address_history h JOIN venues v ON v.id = h.venue_id
                WHERE h.participant_id = ? ORDER BY h.effective_from DESC, h.effective_to IS NULL DESC
                """, arguments: [participantId.databaseText]).map(VenuePeriod.init(row:))
        }
    }

    /// The activities a participant is assigned to, with the role.
    public func assignments(of participantId: UUID) throws -> [ParticipantAssignment] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.id, a.name, a.status, a.start_date, a.end_date, r.name AS role_name FROM assignments s
                JOIN activities a ON a.id = s.activity_id JOIN participant_roles r ON r.id = s.role_id
                WHERE s.participant_id = ? ORDER BY a.start_date DESC, a.name COLLATE NOCASE, r.name
                """, arguments: [participantId.databaseText]).map {
                ParticipantAssignment(activityId: $0.uuid("id"), activityName: $0["name"], roleName: $0["role_name"],
                                      status: ActivityStatus(rawValue: $0["status"]) ?? .planned,
                                      startDate: CalendarDate($0["start_date"]) ?? .unreadable,
                                      endDate: ($0["end_date"] as String?).flatMap(CalendarDate.init))
            }
        }
    }

}

/// The participant's writes: a new home venue applies from `movedOn`, back-dated or not (`moveHome`), so the address
/// history follows every change of home.
extension Participant: WritableRecord {
    public static func validated(_ input: ParticipantInput, as kind: RecordKind) throws -> ParticipantInput.Valid { try input.validated() }

    func didWrite(over stored: Participant?, _ valid: ParticipantInput.Valid, in transaction: RecordTransaction) throws {
        if stored?.homeVenueId != homeVenueId { try transaction.moveHome(of: id, to: homeVenueId, from: valid.movedOn) }
    }
}

extension VenuePeriod {
    /// Reads a history row joined with its venue's name as `venue_name`.
    init(row: Row) {
        self.init(id: row.uuid("id"), venueId: row.uuid("venue_id"), venueName: row["venue_name"],
                  effectiveFrom: CalendarDate(row["effective_from"]) ?? .today(),
                  effectiveTo: (row["effective_to"] as String?).flatMap(CalendarDate.init))
    }
}
