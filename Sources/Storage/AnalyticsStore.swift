import Domain
import Foundation
import GRDB

/// The analytics figures, counted in SQL (the indexes are in the v5-analytics-indexes migration). Each report is read in
/// one transaction, so its figures agree with each other.
extension AppDatabase {
    public func engagement(_ scope: AnalyticsScope) throws -> EngagementReport {
        try read { db in
            let sql = AnalyticsSQL(scope)
            let activities = try sql.activeActivityGroups(db)
            let taking = try sql.participation(db)
            return EngagementReport(
                from: scope.range.from, to: scope.range.to, areaId: scope.areaId,
                totalParticipants: try sql.count(db, "SELECT COUNT(*) FROM participants p WHERE 1\(sql.before("p.created_at"))\(sql.participantsInArea)"),
                totalActivities: try sql.count(db, "SELECT COUNT(*) FROM activities a WHERE 1\(sql.before("a.start_date"))\(sql.activitiesInArea)"),
                activeActivities: activities.reduce(0) { $0 + $1.count },
                ongoingActivities: activities.filter(\.ongoing).reduce(0) { $0 + $1.count },
                participation: taking.total,
                newParticipants: try sql.count(db, "SELECT COUNT(*) FROM participants p WHERE 1\(sql.within("p.created_at"))\(sql.participantsInArea)"),
                newActivities: try sql.count(db, "SELECT COUNT(*) FROM activities a WHERE 1\(sql.within("a.start_date"))\(sql.activitiesInArea)"),
                activitiesByType: try Self.categoryCounts(db, table: "activity_types", counts: activities.reduce(into: [:]) { $0[$1.type, default: 0] += $1.count }),
                activitiesByStatus: ActivityStatus.allCases.map { status in
                    GroupCount(key: status.rawValue, label: status.label,
                               count: activities.filter { $0.status == status.rawValue }.reduce(0) { $0 + $1.count })
                },
                participantsByRole: try Self.categoryCounts(db, table: "participant_roles", counts: taking.byRole),
                breakdown: try sql.breakdown(db))
        }
    }

    /// Every entry of a category table, by name, with its count (0 when absent from `counts`).
    private static func categoryCounts(_ db: Database, table: String, counts: [String: Int]) throws -> [GroupCount] {
        try Row.fetchAll(db, sql: "SELECT id, name FROM \(table) ORDER BY name COLLATE NOCASE").map { row in
            let id: String = row["id"]
            return GroupCount(key: id, label: row["name"], count: counts[id] ?? 0)
        }
    }

    public func growth(_ scope: AnalyticsScope, period requested: GrowthPeriod, today: CalendarDate = .today()) throws -> GrowthReport {
        try read { db in
            let sql = AnalyticsSQL(scope)
            let days = try GrowthMeasure.allCases.map { try sql.newPerDay(db, $0) }
            let firstDay = days.compactMap { $0.perDay.keys.min() }.min() ?? today
            let lastDay = max(today, days.compactMap { $0.perDay.keys.max() }.max() ?? today)
            let range = DateRange(from: scope.range.from ?? min(firstDay, scope.range.to ?? firstDay), to: scope.range.to ?? lastDay)
            let from = range.from!, to = max(range.to!, from)
            var period = requested
            while GrowthSeriesBuilder.periodCount(from: from, to: to, period: period) > GrowthReport.maxPeriods, let longer = period.longer {
                period = longer
            }
            let builder = GrowthSeriesBuilder(from: from, to: to, period: period)
            return GrowthReport(from: from, to: to, areaId: scope.areaId, period: period, requestedPeriod: period == requested ? nil : requested,
                                series: zip(GrowthMeasure.allCases, days).map { builder.series($0, before: $1.before, perDay: $1.perDay) })
        }
    }
}

/// Turns counts per day into counts per period, with cumulative totals and changes.
struct GrowthSeriesBuilder {
    let from: CalendarDate
    let to: CalendarDate
    let period: GrowthPeriod

    static func periodCount(from: CalendarDate, to: CalendarDate, period: GrowthPeriod) -> Int {
        var count = 0, start = period.start(of: from)
        while start <= to && count <= GrowthReport.maxPeriods {
            count += 1
            start = period.next(after: start)
        }
        return count
    }

    func series(_ measure: GrowthMeasure, before: Int, perDay: [CalendarDate: Int]) -> GrowthSeries {
        var points: [GrowthPoint] = []
        var start = period.start(of: from), cumulative = before, previous: Int?
        let byPeriod = perDay.reduce(into: [CalendarDate: Int]()) { $0[period.start(of: $1.key), default: 0] += $1.value }
        while start <= to {
            let next = period.next(after: start)
            let count = byPeriod[start] ?? 0
            cumulative += count
            points.append(GrowthPoint(start: start, end: min(next.adding(days: -1), to), label: period.name(startingOn: start),
                                      partial: start < from || next.adding(days: -1) > to, count: count, cumulative: cumulative,
                                      change: PeriodChange(from: previous, to: count)))
            previous = count
            start = next
        }
        return GrowthSeries(measure: measure, label: measure.label, before: before, points: points)
    }
}

/// The SQL of one report's scope. A participant is in an area when their home venue is; an activity when one of its
/// current venues is. Ranges compare the stored text: dates are `YYYY-MM-DD` and times `YYYY-MM-DD HH:MM:SS.SSS` (UTC),
/// so "before the day after `to`" takes in every moment of `to`, and each bound is one index range. Dates and ids are
/// written into the SQL from typed values (CalendarDate, UUID), never from request text.
struct AnalyticsSQL {
    let scope: AnalyticsScope
    /// `to` plus one day: the first day after the range.
    private let afterRange: String?
    private let from: String?

    init(_ scope: AnalyticsScope) {
        self.scope = scope
        afterRange = scope.range.to.map { $0.adding(days: 1).description }
        from = scope.range.from?.description
    }

    /// The recursive area tree and its venues, or nothing when the scope is everywhere.
    private var prefix: String {
        guard let area = scope.areaId else { return "" }
        return """
            WITH RECURSIVE tree(id) AS (
                SELECT '\(area.databaseText)' UNION ALL SELECT g.id FROM geographic_areas g JOIN tree ON g.parent_id = tree.id
            ),
            area_venues(id) AS (SELECT id FROM venues WHERE geographic_area_id IN tree)

            """
    }

    var participantsInArea: String { scope.areaId == nil ? "" : " AND p.home_venue_id IN area_venues" }

    var activitiesInArea: String {
        scope.areaId == nil ? "" : " AND a.id IN (SELECT activity_id FROM activity_venue_history WHERE effective_to IS NULL AND venue_id IN area_venues)"
    }

    /// Up to the end of the range.
    func before(_ column: String) -> String { afterRange.map { " AND \(column) < '\($0)'" } ?? "" }

    /// Within the range.
    func within(_ column: String) -> String { (from.map { " AND \(column) >= '\($0)'" } ?? "") + before(column) }

    /// Activities whose dates share a day with the range.
    var overlapping: String { before("a.start_date") + (from.map { " AND (a.end_date IS NULL OR a.end_date >= '\($0)')" } ?? "") }

    func count(_ db: Database, _ query: String) throws -> Int { try Int.fetchOne(db, sql: prefix + query) ?? 0 }

    struct ActivityGroup { let type: String; let status: String; let ongoing: Bool; let count: Int }

    /// Active activities counted by type, status and whether they are ongoing.
    func activeActivityGroups(_ db: Database) throws -> [ActivityGroup] {
        try Row.fetchAll(db, sql: prefix + """
            SELECT a.activity_type_id AS type, a.status, a.end_date IS NULL AS ongoing, COUNT(*) AS count FROM activities a
            WHERE 1\(overlapping)\(activitiesInArea) GROUP BY 1, 2, 3
            """).map { ActivityGroup(type: $0["type"], status: $0["status"], ongoing: $0["ongoing"], count: $0["count"]) }
    }

    /// Participants of the scope's area with an assignment to an activity active in the range: how many, and by role.
    func participation(_ db: Database) throws -> (total: Int, byRole: [String: Int]) {
        let rows = try Row.fetchAll(db, sql: (prefix.isEmpty ? "WITH " : prefix + ", ") + """
            taking_part(participant_id, role_id) AS MATERIALIZED (
                SELECT DISTINCT s.participant_id, s.role_id FROM activities a JOIN assignments s ON s.activity_id = a.id
                WHERE 1\(overlapping)\(scope.areaId == nil ? "" : " AND s.participant_id IN (SELECT p.id FROM participants p WHERE 1\(participantsInArea))")
            )
            SELECT role_id, COUNT(*) AS count FROM taking_part GROUP BY role_id
            UNION ALL SELECT NULL, COUNT(DISTINCT participant_id) FROM taking_part
            """)
        var byRole: [String: Int] = [:], total = 0
        for row in rows {
            if let role: String = row["role_id"] { byRole[role] = row["count"] } else { total = row["count"] }
        }
        return (total, byRole)
    }

    /// Engagement per child area (per top-level area when the scope is everywhere), each counting the areas inside it,
    /// then the scope area's own venues when anything is counted there.
    func breakdown(_ db: Database) throws -> [AreaEngagement] {
        let parent = scope.areaId.map { "= '\($0.databaseText)'" } ?? "IS NULL"
        let own = scope.areaId.map { "UNION ALL SELECT id, '\($0.databaseText)' FROM venues WHERE geographic_area_id = '\($0.databaseText)'" } ?? ""
        let rows = try Row.fetchAll(db, sql: """
            WITH RECURSIVE buckets(id, bucket) AS (
                SELECT id, id FROM geographic_areas WHERE parent_id \(parent)
                UNION ALL SELECT g.id, buckets.bucket FROM geographic_areas g JOIN buckets ON g.parent_id = buckets.id
            ),
            bucket_venues(venue_id, bucket) AS MATERIALIZED (
                SELECT v.id, buckets.bucket FROM venues v JOIN buckets ON v.geographic_area_id = buckets.id \(own)
            ),
            taking_part(participant_id) AS MATERIALIZED (
                SELECT DISTINCT s.participant_id FROM activities a JOIN assignments s ON s.activity_id = a.id WHERE 1\(overlapping)
            ),
            figures(bucket, participants, active, taking_part) AS (
                SELECT bv.bucket, COUNT(*), 0, 0 FROM participants p JOIN bucket_venues bv ON bv.venue_id = p.home_venue_id
                WHERE 1\(before("p.created_at")) GROUP BY bv.bucket
                UNION ALL
                SELECT bucket, 0, COUNT(*), 0 FROM (
                    SELECT DISTINCT bv.bucket, a.id FROM activity_venue_history h JOIN bucket_venues bv ON bv.venue_id = h.venue_id
                    JOIN activities a ON a.id = h.activity_id WHERE h.effective_to IS NULL\(overlapping)
                ) GROUP BY bucket
                UNION ALL
                SELECT bv.bucket, 0, 0, COUNT(*) FROM taking_part t JOIN participants p ON p.id = t.participant_id
                JOIN bucket_venues bv ON bv.venue_id = p.home_venue_id GROUP BY bv.bucket
            )
            SELECT g.id, g.name, g.id <> '\(scope.areaId?.databaseText ?? "")' AS is_child,
                EXISTS (SELECT 1 FROM geographic_areas c WHERE c.parent_id = g.id) AS has_children,
                COALESCE(SUM(f.participants), 0) AS participants, COALESCE(SUM(f.active), 0) AS active,
                COALESCE(SUM(f.taking_part), 0) AS taking_part
            FROM geographic_areas g LEFT JOIN figures f ON f.bucket = g.id
            WHERE g.parent_id \(parent)\(scope.areaId.map { " OR (g.id = '\($0.databaseText)' AND f.bucket IS NOT NULL)" } ?? "")
            GROUP BY g.id ORDER BY is_child = 0, g.name COLLATE NOCASE, g.id
            """)
        return rows.map { row in
            AreaEngagement(areaId: row["id"], name: row["name"], isChildArea: row["is_child"], hasAreasInside: row["has_children"],
                           participants: row["participants"], activeActivities: row["active"], participation: row["taking_part"])
        }
    }

    /// New records of `measure` per day within the range, and how many came before it.
    func newPerDay(_ db: Database, _ measure: GrowthMeasure) throws -> (before: Int, perDay: [CalendarDate: Int]) {
        let (table, column, area): (String, String, String) = switch measure {
        case .participants: ("participants p", "p.created_at", participantsInArea)
        case .activities: ("activities a", "a.start_date", activitiesInArea)
        case .assignments: (scope.areaId == nil ? "assignments s" : "assignments s JOIN activities a ON a.id = s.activity_id", "s.assigned_at",
                            activitiesInArea)
        }
        let rows = try Row.fetchAll(db, sql: prefix + """
            SELECT substr(\(column), 1, 10) AS day, COUNT(*) AS count FROM \(table) WHERE 1\(within(column))\(area) GROUP BY 1
            """)
        var perDay: [CalendarDate: Int] = [:]
        for row in rows { if let day = CalendarDate(row["day"] as String) { perDay[day] = row["count"] } }
        let before = try from.map { try count(db, "SELECT COUNT(*) FROM \(table) WHERE \(column) < '\($0)'\(area)") } ?? 0
        return (before, perDay)
    }
}
