import Domain
import Foundation
import GRDB
import Records

/// How the stops of a new list are chosen: from a filter, or picked one by one (`StopTarget.token`s).
public enum StopSelection: Sendable {
    case filter(StopFilterInput)
    case picked([String])
}

/// One stop as an organizer sees it: who or what, where, and what was logged there so far (oldest first).
/// Read for one viewer (`AppDatabase.visitSheet(id:seen:)`): a stop at the home of a participant whose home the viewer
/// may not see (the privacy setting) names no one and says nowhere: no name, venue, address, place on the map, ids, nor
/// where its visits were logged. Every page, print view, CSV and API answer shows the line as it is.
public struct StopLine: Sendable, Equatable {
    public let stop: VisitStop
    /// The participant's name, or the venue's for a venue stop (`hiddenPerson` when `hidesPerson`).
    public let name: String
    public let venueName: String
    public let address: String
    public let coordinate: Coordinate?
    public let logs: [ContactLog]
    /// The stop is at a participant's home, which this viewer may not see.
    public let hidesPerson: Bool

    public static let hiddenPerson = "A participant (hidden from read-only users)"

    public var isVisited: Bool { !logs.isEmpty }
    public var lastResult: ContactResult? { logs.last?.result }
    /// The stop's participant, unless hidden.
    public var participantId: UUID? { hidesPerson ? nil : stop.participantId }
    /// The stop's venue, unless it is a hidden person's home.
    public var venueId: UUID? { hidesPerson ? nil : stop.venueId }
    public var isPersonStop: Bool { stop.participantId != nil }

    /// The same stop for a viewer who may not see where `stop`'s participant lives.
    func hidingPerson() -> StopLine {
        StopLine(stop: stop, name: Self.hiddenPerson, venueName: "", address: "", coordinate: nil,
                 logs: logs.map { $0.withoutLocation() }, hidesPerson: true)
    }
}

/// How far a list (or an organizer's lists) has got: stops visited of all stops, and the stops by their latest result.
public struct VisitProgress: Sendable, Equatable {
    public var total = 0
    public var visited = 0
    public var logs = 0
    public var byResult: [ContactResult: Int] = [:]

    public init() {}

    init(_ lines: [StopLine]) {
        for line in lines { add(stops: 1, visited: line.isVisited ? 1 : 0, logs: line.logs.count, last: line.lastResult) }
    }

    /// Counts more stops: how many, how many were visited, their logs, and the latest result they share.
    mutating func add(stops: Int, visited: Int, logs: Int, last: ContactResult?) {
        (total, self.visited, self.logs) = (total + stops, self.visited + visited, self.logs + logs)
        if let last { byResult[last, default: 0] += stops }
    }

    public var percent: Int { total == 0 ? 0 : visited * 100 / total }
}

/// A visit list with its organizer, stops and progress: what the list, walking, print and CSV views all show.
public struct VisitSheet: Sendable {
    public let list: VisitList
    public let assigneeName: String
    public let stops: [StopLine]
    public var progress: VisitProgress { VisitProgress(stops) }
}

/// A list as listed: with its organizer and progress.
public struct VisitListSummary: Sendable, Equatable {
    public let list: VisitList
    public let assigneeName: String
    public let progress: VisitProgress
}

/// One organizer's progress over all their lists.
public struct OrganizerProgress: Sendable, Equatable {
    public let userId: UUID
    public let name: String
    public let lists: Int
    public let progress: VisitProgress
}

/// Reading lists, stops, logs and progress in the shapes the surfaces show.
extension AppDatabase {
    /// The progress of the lists matching `condition` (on `l`, a visit list), summed per `group` (an expression on it,
    /// such as `l.assigned_user_id`) from the trigger-kept counts (VisitSchema): a few rows per list, never every stop.
    static func progress(_ db: Database, of condition: String, _ arguments: [String], by group: String) throws -> [String: VisitProgress] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(group) AS grp, c.last_result, SUM(c.stops) AS stops, SUM(c.visited) AS visited, SUM(c.logs) AS logs
            FROM visit_list_counts c JOIN visit_lists l ON l.id = c.list_id WHERE c.stops > 0 AND \(condition)
            GROUP BY grp, c.last_result
            """, arguments: StatementArguments(arguments))
        var progress: [String: VisitProgress] = [:]
        for row in rows {
            progress[row["grp"], default: VisitProgress()].add(stops: row["stops"], visited: row["visited"], logs: row["logs"],
                                                               last: ContactResult(rawValue: row["last_result"]))
        }
        return progress
    }

    static func sheet(_ db: Database, list: VisitList, seen: ParticipantVisibility) throws -> VisitSheet {
        let name = try String.fetchOne(db, sql: "SELECT name FROM users WHERE id = ?", arguments: [list.assigneeId.databaseText])
        let lines = try stopLines(db, listId: list.id)
        return VisitSheet(list: list, assigneeName: name ?? "Unknown user",
                          stops: seen.homes ? lines : lines.map { $0.isPersonStop ? $0.hidingPerson() : $0 })
    }

    /// A list's stops by name, each with its logs.
    static func stopLines(_ db: Database, listId: UUID) throws -> [StopLine] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT s.*, v.name AS venue_name, v.address, v.latitude, v.longitude, p.name AS participant_name
            FROM visit_stops s JOIN venues v ON v.id = s.venue_id LEFT JOIN participants p ON p.id = s.participant_id
            WHERE s.visit_list_id = ? ORDER BY COALESCE(p.name, v.name) COLLATE NOCASE, s.id
            """, arguments: [listId.databaseText])
        let logs = try ContactLog.fetchAll(db, sql: """
            SELECT l.* FROM contact_logs l JOIN visit_stops s ON s.id = l.visit_stop_id WHERE s.visit_list_id = ? ORDER BY l.logged_at, l.id
            """, arguments: [listId.databaseText])
        let logsByStop = Dictionary(grouping: logs, by: \.stopId)
        return rows.map { row in
            let stop = VisitStop(row: row)
            let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
            let venueName: String = row["venue_name"]
            return StopLine(stop: stop, name: row["participant_name"] ?? venueName, venueName: venueName, address: row["address"],
                            coordinate: latitude.flatMap { lat in longitude.map { Coordinate(latitude: lat, longitude: $0) } },
                            logs: logsByStop[stop.id] ?? [], hidesPerson: false)
        }
    }

    /// The targets `filter` selects: one SQL statement, so what a list holds is exactly what the filter says.
    static func targets(_ db: Database, _ filter: StopFilter) throws -> [StopTarget] {
        let people = filter.source == .participants
        var query = people
            ? "SELECT v.id AS venue_id, p.id AS participant_id FROM participants p JOIN venues v ON v.id = p.\(Participant.homeVenueColumn) WHERE 1"
            : "SELECT v.id AS venue_id, NULL AS participant_id FROM venues v WHERE 1"
        var arguments: [any DatabaseValueConvertible] = []
        let sameTarget = "s.venue_id = v.id AND s.participant_id IS \(people ? "p.id" : "NULL")"
        if let area = filter.areaId {
            query += " AND v.geographic_area_id IN (\(areaTreeSQL))"
            arguments.append(area.databaseText)
        }
        if let type = filter.venueType {
            query += " AND v.venue_type = ?"
            arguments.append(type.rawValue)
        }
        if let activity = filter.activityId, people {
            query += " AND EXISTS (SELECT 1 FROM assignments a WHERE a.participant_id = p.id AND a.activity_id = ?)"
            arguments.append(activity.databaseText)
        }
        if let since = filter.notVisitedSince {
            query += " AND NOT EXISTS (SELECT 1 FROM contact_logs l JOIN visit_stops s ON s.id = l.visit_stop_id WHERE \(sameTarget) AND l.logged_at >= ?)"
            arguments.append(since.startOfDay)
        }
        if filter.followUpOnly {
            query += """
                 AND (SELECT l.result FROM contact_logs l JOIN visit_stops s ON s.id = l.visit_stop_id WHERE \(sameTarget)
                 ORDER BY l.logged_at DESC, l.id DESC LIMIT 1) = 'FOLLOW_UP'
                """
        }
        return try Row.fetchAll(db, sql: query, arguments: StatementArguments(arguments)).map { row in
            let participant: String? = row["participant_id"]
            return StopTarget(venueId: row.uuid("venue_id"), participantId: participant.flatMap(UUID.init(uuidString:)))
        }.sorted()
    }
}

extension CalendarDate {
    /// Midnight at the start of this day, in the server's time zone.
    var startOfDay: Date {
        Calendar.current.date(from: DateComponents(year: year, month: month, day: day)) ?? Date(timeIntervalSince1970: 0)
    }
}

private extension ContactLog {
    /// Where a visit was logged says where the stop is: left out with the stop's place.
    func withoutLocation() -> ContactLog {
        var log = self
        log.location = nil
        return log
    }
}
