import Domain
import Foundation
import GRDB

/// How the activity list is searched, filtered, sorted and paged.
public struct ActivityQuery: Sendable, Equatable {
    public var text: String
    public var typeId: UUID?
    public var status: ActivityStatus?
    public var sort: Sort
    public var descending: Bool
    public var page: PageRequest

    /// The orders the list offers.
    public enum Sort: String, Sendable, CaseIterable {
        case start, name, type
    }

    public init(text: String = "", typeId: UUID? = nil, status: ActivityStatus? = nil, sort: Sort = .start, descending: Bool = true,
                page: PageRequest = PageRequest()) {
        self.text = text
        self.typeId = typeId
        self.status = status
        self.sort = sort
        self.descending = descending
        self.page = page
    }
}

/// An activity as listed: with its type's name and its current venues.
public struct ActivityListItem: Sendable, Equatable {
    public let activity: Activity
    public let typeName: String
    public let venueNames: [String]
}

/// Activities (Requirement 5): lists, venue history, completion, and writes that keep venue history.
extension AppDatabase {
    public func activities(_ query: ActivityQuery) throws -> ListPage<ActivityListItem> {
        try read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if !query.text.trimmingCharacters(in: .whitespaces).isEmpty {
                conditions.append("a.search_text LIKE ? ESCAPE '\\'")
                arguments += [SearchText.pattern(query.text.trimmingCharacters(in: .whitespaces))]
            }
            if let type = query.typeId {
                conditions.append("a.activity_type_id = ?")
                arguments += [type.databaseText]
            }
            if let status = query.status {
                conditions.append("a.status = ?")
                arguments += [status.rawValue]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let direction = query.descending ? "DESC" : "ASC"
            let order = switch query.sort {
            case .start: "a.start_date \(direction), a.id \(direction)"
            case .name: "a.name COLLATE NOCASE \(direction), a.id \(direction)"
            case .type: "t.name COLLATE NOCASE \(direction), a.start_date DESC, a.id"
            }
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM activities a \(filter)", arguments: arguments) ?? 0
            let rows = try Row.fetchAll(db, sql: """
                SELECT a.*, t.name AS type_name,
                    (SELECT group_concat(v.name, char(31)) FROM activity_venue_history h JOIN venues v ON v.id = h.venue_id
                     WHERE h.activity_id = a.id AND h.effective_to IS NULL) AS venue_names
                FROM (SELECT a.id FROM activities a JOIN activity_types t ON t.id = a.activity_type_id
                      \(filter) ORDER BY \(order) LIMIT ? OFFSET ?) page
                JOIN activities a ON a.id = page.id JOIN activity_types t ON t.id = a.activity_type_id ORDER BY \(order)
                """, arguments: arguments + [query.page.perPage, query.page.offset])
            return ListPage(items: rows.map { row in
                let venues: String? = row["venue_names"]
                return ActivityListItem(activity: Activity(row: row), typeName: row["type_name"],
                                        venueNames: venues.map { $0.split(separator: "\u{1F}").map(String.init) } ?? [])
            }, total: total, request: query.page)
        }
    }

    public func activity(id: UUID) throws -> Activity {
        try read { db in try Self.fetchActivity(db, id: id) }
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

    @discardableResult
    public func createActivity(_ input: ActivityInput, by actor: Actor) throws -> Activity {
        let valid = try input.validated()
        return try write(by: actor) { db, changes in
            try Self.ensureTypeExists(db, valid.typeId)
            try valid.venueIds.forEach { try Self.ensureVenueExists(db, $0, field: "venue_ids") }
            let now = Date()
            let activity = Activity(id: UUID(), name: valid.name, description: valid.description, typeId: valid.typeId,
                                    startDate: valid.startDate, endDate: valid.endDate, status: valid.status, version: 1,
                                    createdAt: now, updatedAt: now)
            try db.execute(sql: """
                INSERT INTO activities (id, name, description, activity_type_id, start_date, end_date, status, version, created_at,
                updated_at, search_text) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
                """, arguments: [activity.id.databaseText, activity.name, activity.description, activity.typeId.databaseText,
                                 activity.startDate.description, activity.endDate?.description, activity.status.rawValue, now, now,
                                 SearchText.of(activity.name)])
            try changes.recordCreate("activity", id: activity.id, fields: activity.syncedFields)
            let from = max(valid.venuesFrom ?? valid.startDate, valid.startDate)
            for venue in valid.venueIds { try Self.openVenuePeriod(db, changes, activity: activity.id, venue: venue, from: from) }
            return activity
        }
    }

    /// Saves changes; venues removed get an end date and venues added a new period, both from `venuesFrom` (Property 38).
    @discardableResult
    public func updateActivity(id: UUID, _ input: ActivityInput, expectedVersion: Int?, by actor: Actor) throws -> Activity {
        let valid = try input.validated()
        return try write(by: actor) { db, changes in
            var activity = try Self.fetchActivity(db, id: id)
            if let expectedVersion, expectedVersion != activity.version { throw DomainError.staleVersion(entity: "activity") }
            try Self.ensureTypeExists(db, valid.typeId)
            try valid.venueIds.forEach { try Self.ensureVenueExists(db, $0, field: "venue_ids") }
            let before = activity.syncedFields
            (activity.name, activity.description, activity.typeId) = (valid.name, valid.description, valid.typeId)
            (activity.startDate, activity.endDate, activity.status) = (valid.startDate, valid.endDate, valid.status)
            if activity.syncedFields != before {
                let baseVersion = activity.version
                activity.version += 1
                activity.updatedAt = Date()
                try Self.saveActivity(db, activity)
                try changes.recordUpdate("activity", id: id, before: before, after: activity.syncedFields, baseVersion: baseVersion)
            }
            try Self.replaceVenues(db, changes, activity: id, with: valid.venueIds, from: max(valid.venuesFrom ?? .today(), valid.startDate))
            return activity
        }
    }

    /// Marks an activity completed; an activity without an end date, or ending later, ends today.
    /// One that has not started yet cannot be completed (cancel it instead).
    @discardableResult
    public func completeActivity(id: UUID, today: CalendarDate = .today(), by actor: Actor) throws -> Activity {
        try write(by: actor) { db, changes in
            var activity = try Self.fetchActivity(db, id: id)
            guard activity.status != .completed else { return activity }
            guard activity.startDate < today else {
                throw DomainError.protected(message: "“\(activity.name)” starts on \(activity.startDate.display), so it cannot be completed yet. If it will not happen, edit it and set its status to Cancelled.")
            }
            let before = activity.syncedFields
            activity.status = .completed
            if activity.endDate.map({ $0 > today }) ?? true { activity.endDate = today }
            let baseVersion = activity.version
            activity.version += 1
            activity.updatedAt = Date()
            try Self.saveActivity(db, activity)
            try changes.recordUpdate("activity", id: id, before: before, after: activity.syncedFields, baseVersion: baseVersion)
            return activity
        }
    }

    /// Deletes an activity with its venue history and assignments.
    public func deleteActivity(id: UUID, by actor: Actor) throws {
        try write(by: actor) { db, changes in
            let activity = try Self.fetchActivity(db, id: id)
            try db.execute(sql: "DELETE FROM activities WHERE id = ?", arguments: [id.databaseText])
            try changes.recordDelete("activity", id: id, baseVersion: activity.version)
        }
    }

    private static func saveActivity(_ db: Database, _ activity: Activity) throws {
        try db.execute(sql: """
            UPDATE activities SET name = ?, description = ?, activity_type_id = ?, start_date = ?, end_date = ?, status = ?,
            version = ?, updated_at = ?, search_text = ? WHERE id = ?
            """, arguments: [activity.name, activity.description, activity.typeId.databaseText, activity.startDate.description,
                             activity.endDate?.description, activity.status.rawValue, activity.version, activity.updatedAt,
                             SearchText.of(activity.name), activity.id.databaseText])
    }

    private static func replaceVenues(_ db: Database, _ changes: ChangeRecorder, activity: UUID, with venues: [UUID],
                                      from date: CalendarDate) throws {
        let open = try Row.fetchAll(db, sql: """
            SELECT id, venue_id, version, effective_from FROM activity_venue_history WHERE activity_id = ? AND effective_to IS NULL
            """, arguments: [activity.databaseText])
        let current = Set(open.map { $0.uuid("venue_id") })
        for row in open where !venues.contains(row.uuid("venue_id")) {
            let end = max(date.description, row["effective_from"] as String)
            try db.execute(sql: "UPDATE activity_venue_history SET effective_to = ?, version = version + 1 WHERE id = ?",
                           arguments: [end, row["id"] as String])
            try changes.recordUpdate("activity_venue", id: row.uuid("id"), before: ["effective_to": .null], after: ["effective_to": .string(end)],
                                     baseVersion: row["version"])
        }
        for venue in venues where !current.contains(venue) {
            try openVenuePeriod(db, changes, activity: activity, venue: venue, from: date)
        }
    }

    private static func openVenuePeriod(_ db: Database, _ changes: ChangeRecorder, activity: UUID, venue: UUID, from: CalendarDate) throws {
        let id = UUID()
        try db.execute(sql: "INSERT INTO activity_venue_history (id, activity_id, venue_id, effective_from) VALUES (?, ?, ?, ?)",
                       arguments: [id.databaseText, activity.databaseText, venue.databaseText, from.description])
        try changes.recordStoredCreate("activity_venue", id: id)
    }

    private static func fetchActivity(_ db: Database, id: UUID) throws -> Activity {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM activities WHERE id = ?", arguments: [id.databaseText]) else {
            throw DomainError.notFound(entity: "activity")
        }
        return Activity(row: row)
    }

    private static func ensureTypeExists(_ db: Database, _ type: UUID) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM activity_types WHERE id = ?)", arguments: [type.databaseText]) == true else {
            throw ValidationError.clash("activity_type_id", "The chosen activity type no longer exists; choose another")
        }
    }
}

extension Activity {
    var syncedFields: [String: JSONValue] {
        ["name": .string(name), "description": description.map(JSONValue.string) ?? .null,
         "activity_type_id": .string(typeId.databaseText), "start_date": .string(startDate.description),
         "end_date": endDate.map { .string($0.description) } ?? .null, "status": .string(status.rawValue)]
    }

    init(row: Row) {
        let end: String? = row["end_date"]
        self.init(id: row.uuid("id"), name: row["name"], description: row["description"], typeId: row.uuid("activity_type_id"),
                  startDate: CalendarDate(row["start_date"]) ?? CalendarDate("2000-01-01")!, endDate: end.flatMap(CalendarDate.init),
                  status: ActivityStatus(rawValue: row["status"]) ?? .active, version: row["version"],
                  createdAt: row["created_at"], updatedAt: row["updated_at"])
    }
}
