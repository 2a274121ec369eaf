import Domain
import Foundation
import Records
import GRDB

/// How the activity list is searched, filtered, sorted and paged.
public struct ActivityQuery: Sendable, Equatable {
    public var text = ""
    public var typeId: UUID?
    public var status: ActivityStatus?
    /// Held now at a venue in this area or an area inside it.
    public var areaId: UUID?
    /// Held now at this venue.
    public var venueId: UUID?
    /// Dates overlapping [from, to]; either end may be open.
    public var from: CalendarDate?
    public var to: CalendarDate?
    public var sort = Sort.start
    public var descending = true
    public var page = PageRequest()

    /// The orders the list offers.
    public enum Sort: String, Sendable, CaseIterable {
        case start, name, type
    }
}

extension ActivityQuery {
    /// Every activity, newest start first, first page; the surfaces start from it and fill it from a request (`init(reading:)` in Surface).
    public static let unfiltered = ActivityQuery()
}

/// An activity as listed: with its type's name and its current venues.
public struct ActivityListItem: Sendable, Equatable {
    public let activity: Activity
    public let typeName: String
    public let venueNames: [String]
}

/// One row of the activity list page: only what it shows, so descriptions and timestamps are neither read nor decoded.
public struct ActivityListRow: Sendable, Equatable {
    public let id: UUID
    public let name: String
    public let startDate: CalendarDate
    public let endDate: CalendarDate?
    public let status: ActivityStatus
    public let typeName: String
    public let venueNames: [String]
}

/// Activities (Requirement 5): lists, venue history, completion, and writes that keep venue history.
extension AppDatabase {
    public func activities(_ query: ActivityQuery) throws -> ListPage<ActivityListItem> {
        try read { db in
            let (list, order) = Self.activityList(query)
            return try list.page(db, order: order, select: "a.*, t.name AS type_name, \(Self.currentVenueNames)", request: query.page, anchors: pageAnchors) { row in
                ActivityListItem(activity: Activity(row: row), typeName: row["type_name"], venueNames: Self.venueNames(row))
            }
        }
    }

    /// The first `limit` activities whose name holds `text`, by name: a picker's matches.
    public func activityMatches(_ text: String, limit: Int = 20) throws -> ListPage<ActivityListRow> {
        var query = ActivityQuery.unfiltered
        (query.text, query.sort, query.descending, query.page) = (text, .name, false, PageRequest(page: 1, perPage: limit))
        return try activityRows(query)
    }

    /// The same page as `activities(_:)` with only what the list page shows.
    public func activityRows(_ query: ActivityQuery) throws -> ListPage<ActivityListRow> {
        try read { db in
            let (list, order) = Self.activityList(query)
            let select = "a.id, a.name, a.start_date, a.end_date, a.status, t.name AS type_name, \(Self.currentVenueNames)"
            // By position, as selected: no name is looked up for these rows.
            return try list.page(db, order: order, select: select, request: query.page, anchors: pageAnchors) { row in
                let schedule = Activity.schedule(start: row[2], end: row[3], status: row[4])
                return ActivityListRow(id: row.uuid(at: 0), name: row[1], startDate: schedule.start, endDate: schedule.end,
                                       status: schedule.status, typeName: row[5], venueNames: Self.venueNames(row[6]))
            }
        }
    }

    /// An activity's current venues' names in one column (`venue_names`), for its list row.
    private static let currentVenueNames = """
        (SELECT group_concat(v.name, char(31)) FROM activity_venue_history h JOIN venues v ON v.id = h.venue_id
         WHERE h.activity_id = a.id AND h.effective_to IS NULL) AS venue_names
        """

    private static func venueNames(_ row: Row) -> [String] {
        venueNames(row["venue_names"])
    }

    private static func venueNames(_ names: String?) -> [String] {
        names.map { $0.split(separator: "\u{1F}").map(String.init) } ?? []
    }

    /// The filters and order of an activity list (its page and its export).
    static func activityList(_ query: ActivityQuery) -> (ListQuery, order: String) {
        var list = ListQuery("activities a", sortJoins: "JOIN activity_types t ON t.id = a.activity_type_id")
        list.sortUsesJoins = query.sort == .type
        list.matching(query.text, alias: "a")
        if let type = query.typeId { list.add("a.activity_type_id = ?", type.databaseText) }
        if let status = query.status { list.add(equal: "status", alias: "a", status.rawValue) }
        if let area = query.areaId {
            list.add("""
                a.id IN (SELECT h.activity_id FROM activity_venue_history h WHERE h.effective_to IS NULL
                         AND h.venue_id IN (SELECT id FROM venues WHERE geographic_area_id IN (\(Self.areaTreeSQL))))
                """, area.databaseText)
        }
        if let venue = query.venueId {
            list.add("a.id IN (SELECT activity_id FROM activity_venue_history WHERE effective_to IS NULL AND venue_id = ?)", venue.databaseText)
        }
        if let to = query.to { list.add("a.start_date <= ?", to.description) }
        if let from = query.from { list.add("(a.end_date IS NULL OR a.end_date >= ?)", from.description) }
        let direction = query.descending ? "DESC" : "ASC"
        let order = switch query.sort {
        case .start: "a.start_date \(direction), a.id \(direction)"
        case .name: "a.name COLLATE NOCASE \(direction), a.id \(direction)"
        case .type: "t.name COLLATE NOCASE \(direction), a.start_date DESC, a.id"
        }
        return (list, order)
    }

    public func activity(id: UUID) throws -> Activity {
        try read { db in try Activity.find(db, id: id) }
    }

    /// Every venue period of the activity, newest first (Property 38).
    public func venueHistory(ofActivity id: UUID) throws -> [VenuePeriod] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT h.*, v.name AS venue_name FROM activity_venue_history h JOIN venues v ON v.id = h.venue_id
                WHERE h.activity_id = ? ORDER BY h.effective_from DESC, h.effective_to IS NULL DESC, v.name
                """, arguments: [id.databaseText]).map(VenuePeriod.init(row:))
        }
    }

    @discardableResult public func createActivity(_ input: ActivityInput, by actor: Actor) throws -> Activity { try create(input.validated(), by: actor) }
    /// Saves changes; venues removed get an end date and venues added a new period, both from `venuesFrom` (Property 38).
    @discardableResult public func updateActivity(id: UUID, _ input: ActivityInput, expectedVersion: Int?, by actor: Actor) throws -> Activity {
        try update(id: id, input.validated(), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes an activity with its venue history and assignments.
    public func deleteActivity(id: UUID, by actor: Actor) throws { try remove(Activity.self, id: id, by: actor) }

    /// Marks an activity completed; an activity without an end date, or ending later, ends today.
    /// One that has not started yet cannot be completed (cancel it instead).
    @discardableResult
    public func completeActivity(id: UUID, today: CalendarDate = .today(), by actor: Actor) throws -> Activity {
        try transaction(by: actor) { transaction in
            let stored = try transaction.fetch(Activity.self, id: id)
            guard stored.status != .completed else { return stored }
            guard stored.startDate < today else {
                throw DomainError.protected(message: "“\(stored.name)” starts on \(stored.startDate.display), so it cannot be completed yet. If it will not happen, edit it and set its status to Cancelled.")
            }
            var completed = stored
            completed.status = .completed
            if completed.endDate.map({ $0 > today }) ?? true { completed.endDate = today }
            return try transaction.save(completed, over: stored)
        }
    }
}

/// The activity's writes: venues removed get an end date and venues added a new period, both from `venuesFrom`
/// (Property 38), never before the activity starts.
extension Activity: WritableRecord {
    public static func validated(_ input: ActivityInput, as kind: RecordKind) throws -> ActivityInput.Valid { try input.validated() }

    func checkWrite(over stored: Activity?, _ valid: ActivityInput.Valid, in transaction: RecordTransaction) throws {
        try valid.venueIds.forEach { try transaction.ensureExists($0, in: Venue.kind.table, field: "venue_ids", Venue.missing) }
    }

    /// A new activity's venues apply from its start unless `venuesFrom` says otherwise; an edit's from today.
    func didWrite(over stored: Activity?, _ valid: ActivityInput.Valid, in transaction: RecordTransaction) throws {
        let from = valid.venuesFrom ?? (stored == nil ? valid.startDate : .today())
        try transaction.replaceVenues(of: id, with: valid.venueIds, from: max(from, valid.startDate))
    }
}

extension RecordTransaction {
    /// Ends the periods of venues no longer chosen and opens one for each venue newly chosen, from `date`.
    func replaceVenues(of activity: UUID, with venues: [UUID], from date: CalendarDate) throws {
        let open = try PeriodRow.open(db, .activity, of: activity)
        for period in open where !venues.contains(period.venueId) { try close(period, on: date) }
        let current = Set(open.map(\.venueId))
        for venue in venues where !current.contains(venue) {
            try insert(PeriodRow(owner: .activity, ownerId: activity, venueId: venue, from: date))
        }
    }
}
