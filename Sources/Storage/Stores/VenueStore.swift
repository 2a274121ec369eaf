import Domain
import Foundation
import GRDB
import Records

/// How the venue list is filtered, sorted and paged; every field comes from the query string.
public struct VenueQuery: Sendable, Equatable {
    /// Case-insensitive substring of the name or address.
    public var text = ""
    /// Venues in this area or any area below it.
    public var areaId: UUID?
    public var venueType: VenueType?
    public var sort = Sort.name
    public var page = PageRequest()

    /// The orders the venue list offers.
    public enum Sort: String, Sendable, CaseIterable {
        case name, area, created
    }
}

extension VenueQuery {
    /// Every venue by name, first page; the surfaces start from it and fill it from a request (`init(reading:)` in Surface).
    public static let unfiltered = VenueQuery()
}

/// A venue as listed: with its area's name.
public struct VenueListItem: Sendable, Equatable {
    public let venue: Venue
    public let areaName: String
}

/// A named link target (an activity, a participant) shown on a venue's page.
public struct NamedReference: Sendable, Equatable {
    public let id: UUID
    public let name: String
}

/// Venues (Requirement 6A): search, filters, detail, and writes that refuse deleting what is used.
extension AppDatabase {
    public func venues(_ query: VenueQuery) throws -> ListPage<VenueListItem> {
        try read { db in
            let (list, order) = Self.venueList(query)
            return try list.page(db, order: order, select: "v.*, g.name AS area_name", request: query.page, anchors: pageAnchors) {
                VenueListItem(venue: Venue(row: $0), areaName: $0["area_name"])
            }
        }
    }

    /// The filters and order of a venue list (its page and its export).
    static func venueList(_ query: VenueQuery) -> (ListQuery, order: String) {
        var list = ListQuery("venues v", sortJoins: "JOIN geographic_areas g ON g.id = v.geographic_area_id")
        list.sortUsesJoins = query.sort == .area
        list.matching(query.text, alias: "v")
        list.within(query.areaId, areaColumn: "v.geographic_area_id")
        if let type = query.venueType { list.add("v.venue_type = ?", type.rawValue) }
        let order = switch query.sort {
        case .name: "v.name COLLATE NOCASE, v.id"
        case .area: "g.name COLLATE NOCASE, v.name COLLATE NOCASE, v.id"
        case .created: "v.created_at DESC, v.id DESC"
        }
        return (list, order)
    }

    public func venue(id: UUID) throws -> Venue {
        try read { db in try Venue.find(db, id: id) }
    }

    /// Venues whose name or address contains `text`, for pickers on other forms.
    /// The first `limit` venues matching `text`, with how many match in all (pickers say when they show only some).
    public func venueMatches(_ text: String, limit: Int = 20) throws -> ListPage<VenueListItem> {
        try venues(VenueQuery(text: text, page: PageRequest(page: 1, perPage: limit)))
    }

    /// One page of the venues in an area and the areas inside it, by name.
    public func venues(inArea areaId: UUID, page: PageRequest) throws -> ListPage<VenueListItem> {
        try venues(VenueQuery(areaId: areaId, page: page))
    }

    /// Activities currently held at the venue and participants living there (first `limit` of each, with totals).
    public func venueOccupancy(id: UUID, limit: Int = 100) throws -> (activities: [NamedReference], activityTotal: Int,
                                                                        participants: [NamedReference], participantTotal: Int) {
        try read { db in
            let venue = id.databaseText
            let activities = try Row.fetchAll(db, sql: """
                SELECT DISTINCT a.id, a.name FROM activity_venue_history h JOIN activities a ON a.id = h.activity_id
                WHERE h.venue_id = ? AND h.effective_to IS NULL ORDER BY a.name COLLATE NOCASE LIMIT ?
                """, arguments: [venue, limit]).map { NamedReference(id: $0.uuid("id"), name: $0["name"]) }
            let activityTotal = try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT activity_id) FROM activity_venue_history WHERE venue_id = ? AND effective_to IS NULL
                """, arguments: [venue]) ?? 0
            let participants = try Row.fetchAll(db, sql: """
                SELECT id, name FROM participants WHERE \(Participant.homeVenueColumn) = ? ORDER BY name COLLATE NOCASE LIMIT ?
                """, arguments: [venue, limit]).map { NamedReference(id: $0.uuid("id"), name: $0["name"]) }
            let participantTotal = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM participants WHERE \(Participant.homeVenueColumn) = ?",
                                                    arguments: [venue]) ?? 0
            return (activities, activityTotal, participants, participantTotal)
        }
    }

    @discardableResult public func createVenue(_ input: VenueInput, by actor: Actor) throws -> Venue { try create(input.validated(), by: actor) }
    @discardableResult public func updateVenue(id: UUID, _ input: VenueInput, expectedVersion: Int?, by actor: Actor) throws -> Venue {
        try update(id: id, input.validated(), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes a venue nothing refers to (Property 27): no participant lives there, no activity was ever held there, no
    /// visit list stops there.
    public func deleteVenue(id: UUID, by actor: Actor) throws { try remove(Venue.self, id: id, by: actor) }

    /// Counts of what refers to a venue, for its delete confirmation.
    public func venueReferenceCounts(id: UUID) throws -> VenueReferenceCounts {
        try read { db in VenueReferenceCounts(try db.blockers(of: Venue.kind, id: id)) }
    }
}

/// What refers to a venue and so keeps it from being deleted.
public struct VenueReferenceCounts: Sendable, Equatable {
    public let residents: Int
    public let addressHistory: Int
    public let activityHistory: Int
    /// Stops of visit lists: a list keeps the households it was made for.
    public let visitStops: Int
    /// Records of any other kind whose declaration refers to venues, each kind in its own words.
    public let others: [OtherKind]

    /// How many records of a kind refer to the venue, with the kind's label.
    public struct OtherKind: Sendable, Equatable {
        public let label: (one: String, many: String)
        public let count: Int

        public static func == (lhs: Self, rhs: Self) -> Bool { (lhs.label.one, lhs.label.many, lhs.count) == (rhs.label.one, rhs.label.many, rhs.count) }
    }

    public init(residents: Int, addressHistory: Int, activityHistory: Int, visitStops: Int = 0, others: [OtherKind] = []) {
        self.residents = residents
        self.addressHistory = addressHistory
        self.activityHistory = activityHistory
        self.visitStops = visitStops
        self.others = others
    }

    public var total: Int { residents + addressHistory + activityHistory + visitStops + others.map(\.count).reduce(0, +) }

    /// Why the venue cannot be deleted, naming each kind of reference.
    public func refusal(name: String) -> String {
        var parts: [String] = []
        if residents > 0 { parts.append(residents == 1 ? "1 participant lives there" : "\(residents) participants live there") }
        if addressHistory > residents { parts.append("it is in participants' address history") }
        if activityHistory > 0 { parts.append(activityHistory == 1 ? "1 activity was held there" : "activities were held there (\(activityHistory) venue records)") }
        if visitStops > 0 { parts.append(visitStops == 1 ? "it is a stop on a visit list" : "it is \(visitStops) stops on visit lists") }
        for other in others { parts.append(other.count == 1 ? "1 \(other.label.one) refers to it" : "\(other.count) \(other.label.many) refer to it") }
        return "“\(name)” cannot be deleted because \(parts.joined(separator: ", and ")). Its history would be lost; edit the venue instead."
    }
}

extension VenueReferenceCounts {
    /// What each kind that keeps a venue refers to it by counts; kinds named by no count of their own are counted by
    /// their label, so whatever refuses the deletion is told.
    init(_ blockers: [Blocker]) {
        func count(_ kind: RecordKind) -> Int { blockers.filter { $0.kind.entity == kind.entity }.map(\.count).reduce(0, +) }
        let named = [Participant.kind, PeriodRow.addressKind, PeriodRow.activityVenueKind, VisitStop.kind]
        var counted = Set(named.map(\.entity))
        let others = blockers.map(\.kind).filter { counted.insert($0.entity).inserted }.map { OtherKind(label: $0.label, count: count($0)) }
        self.init(residents: count(named[0]), addressHistory: count(named[1]), activityHistory: count(named[2]), visitStops: count(named[3]),
                  others: others)
    }
}

extension String {
    /// Escapes LIKE wildcards so user text matches literally (with ESCAPE '\').
    var likeEscaped: String {
        replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}

/// The venue's writes: deleting one is refused while anything refers to it (Property 27): no participant lives
/// there, no activity was ever held there.
extension Venue: WritableRecord {
    public static func validated(_ input: VenueInput, as kind: RecordKind) throws -> VenueInput.Valid { try input.validated() }

    func refusal(_ blockers: [Blocker], in transaction: RecordTransaction) throws -> DomainError? {
        let references = VenueReferenceCounts(blockers)
        return references.total > 0 ? .stillReferenced(message: references.refusal(name: name), references: []) : nil
    }
}
