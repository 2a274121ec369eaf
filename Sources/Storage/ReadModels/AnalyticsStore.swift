import Domain
import Foundation
import GRDB
import Logging

/// The analytics figures, counted over an in-memory snapshot (AnalyticsSnapshot) brought up to date from the change log
/// inside the report's read transaction, so its figures agree with each other and with the database.
extension AppDatabase {
    /// Starts counting the analytics' figures for the first time, when a report would not wait for it (serve calls this
    /// at start). A first read that fails, now or later, is logged to `logger`.
    public func prepareAnalytics(logger: Logger) throws {
        try read { try analytics.prepare($0, logger: logger, load: analyticsSnapshot) }
    }

    /// A whole snapshot read in a read transaction of its own; the heap the reading used is handed back to the system,
    /// which glibc would keep otherwise.
    private var analyticsSnapshot: @Sendable () throws -> AnalyticsSnapshot {
        { [self] in
            let snapshot = try read { db in
                let snapshot = AnalyticsSnapshot()
                try snapshot.load(db)
                return snapshot
            }
            _ = Self.trimHeap?(0)
            return snapshot
        }
    }

    public func engagement(_ scope: AnalyticsScope) throws -> EngagementReport {
        try read { db in
            try analytics.counting(db, scope, load: analyticsSnapshot) { counts in
                let figures = EngagementFigures(counts)
                return EngagementReport(
                    from: scope.range.from, to: scope.range.to, areaId: scope.areaId,
                    totalParticipants: figures.totalParticipants, totalActivities: figures.totalActivities,
                    activitiesInRange: figures.activitiesInRange, openEndedActivitiesInRange: figures.openEndedActivitiesInRange,
                    participation: figures.participation, newParticipants: figures.newParticipants, newActivities: figures.newActivities,
                    activitiesByType: try Self.categoryCounts(db, table: "activity_types", counts: figures.activitiesByType),
                    activitiesByStatus: ActivityStatus.allCases.map { status in
                        GroupCount(key: status.rawValue, label: status.label, count: figures.activitiesByStatus[status.rawValue] ?? 0)
                    },
                    participantsByRole: try Self.categoryCounts(db, table: "participant_roles", counts: figures.participantsByRole),
                    breakdown: try Self.breakdown(db, scope, counts))
            }
        }
    }

    /// Every entry of a category table, by name, with its count (0 when absent from `counts`).
    private static func categoryCounts(_ db: Database, table: String, counts: [String: Int]) throws -> [GroupCount] {
        try Row.fetchAll(db, sql: "SELECT id, name FROM \(table) ORDER BY name COLLATE NOCASE").map { row in
            let id: String = row["id"]
            return GroupCount(key: id, label: row["name"], count: counts[id] ?? 0)
        }
    }

    /// Engagement per child area of the scope's area (per top-level area when the scope is everywhere), each counting
    /// the areas inside it, then the scope area's own venues when anything is counted there.
    private static func breakdown(_ db: Database, _ scope: AnalyticsScope, _ counts: SnapshotCounts) throws -> [AreaEngagement] {
        let figures = BreakdownFigures(counts)
        let scopeId = scope.areaId?.databaseText
        let rows = try Row.fetchAll(db, sql: """
            SELECT g.id, g.name, g.id IS NOT ? AS is_child, EXISTS (SELECT 1 FROM geographic_areas c WHERE c.parent_id = g.id) AS has_children
            FROM geographic_areas g WHERE g.parent_id IS ? OR g.id = ?
            ORDER BY is_child = 0, g.name COLLATE NOCASE, g.id
            """, arguments: [scopeId, scopeId, scopeId])
        return rows.compactMap { row in
            let id: String = row["id"]
            let bucket = counts.snapshot.areas.existing(id) ?? -1
            let (participants, inRange, taking) = (figures.participants[bucket] ?? 0, figures.inRange[bucket] ?? 0, figures.taking[bucket] ?? 0)
            let isChild: Bool = row["is_child"]
            if !isChild, participants + inRange + taking == 0 { return nil }
            return AreaEngagement(areaId: id, name: row["name"], isChildArea: isChild, hasAreasInside: row["has_children"],
                                  participants: participants, activitiesInRange: inRange, participation: taking)
        }
    }

    public func growth(_ scope: AnalyticsScope, period requested: GrowthPeriod, today: CalendarDate = .today()) throws -> GrowthReport {
        try read { db in
            try analytics.counting(db, scope, load: analyticsSnapshot) { counts in
                var dates: [AnalyticsSnapshot.Day: CalendarDate] = [:]
                let days = GrowthMeasure.allCases.map { measure in
                    let counted = counts.newPerDay(measure)
                    var perDay: [CalendarDate: Int] = [:]
                    for (day, count) in counted.perDay {
                        if dates[day] == nil { dates[day] = AnalyticsSnapshot.date(day) }
                        if let date = dates[day] { perDay[date, default: 0] += count }
                    }
                    return (before: counted.before, perDay: perDay)
                }
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
}

/// The engagement view's figures over the snapshot.
struct EngagementFigures {
    var totalParticipants = 0, newParticipants = 0, totalActivities = 0, newActivities = 0
    var activitiesInRange = 0, openEndedActivitiesInRange = 0, participation = 0
    var activitiesByType: [String: Int] = [:], activitiesByStatus: [String: Int] = [:], participantsByRole: [String: Int] = [:]

    init(_ counts: SnapshotCounts) {
        let snapshot = counts.snapshot
        for participant in snapshot.participants where participant.alive && counts.inScope(participant) {
            if counts.endsByTo(participant.created) { totalParticipants += 1 }
            if counts.within(participant.created) { newParticipants += 1 }
        }
        for activity in snapshot.activities where activity.alive && counts.inScope(activity) {
            if counts.endsByTo(activity.start) { totalActivities += 1 }
            if counts.within(activity.start) { newActivities += 1 }
            guard counts.overlaps(activity) else { continue }
            activitiesInRange += 1
            if activity.end == AnalyticsSnapshot.noDay { openEndedActivitiesInRange += 1 }
            activitiesByType[snapshot.types.ids[Int(activity.type)], default: 0] += 1
            activitiesByStatus[snapshot.statuses.ids[Int(activity.status)], default: 0] += 1
        }
        let taking = counts.takingPart()
        func counted(_ marks: [Bool]) -> Int {
            var total = 0
            for (index, marked) in marks.enumerated() where marked {
                if let participant = counts.participant(Int32(index)), participant.alive, counts.inScope(participant) { total += 1 }
            }
            return total
        }
        participation = counted(taking.anyRole)
        for (role, marks) in taking.byRole.enumerated() where !marks.isEmpty {
            participantsByRole[snapshot.roles.ids[role]] = counted(marks)
        }
    }
}

/// The geographic breakdown's figures per bucket area (see SnapshotCounts.breakdownBuckets).
struct BreakdownFigures {
    var participants: [Int32: Int] = [:], inRange: [Int32: Int] = [:], taking: [Int32: Int] = [:]

    init(_ counts: SnapshotCounts) {
        let snapshot = counts.snapshot
        let buckets = counts.breakdownBuckets()
        let venueBucket = snapshot.venueArea.map { $0 >= 0 && Int($0) < buckets.count ? buckets[Int($0)] : -1 }
        let takingPart = counts.takingPart().anyRole
        for (index, participant) in snapshot.participants.enumerated() where participant.alive && participant.home >= 0 {
            let bucket = Int(participant.home) < venueBucket.count ? venueBucket[Int(participant.home)] : -1
            guard bucket >= 0 else { continue }
            if counts.endsByTo(participant.created) { participants[bucket, default: 0] += 1 }
            if index < takingPart.count, takingPart[index] { taking[bucket, default: 0] += 1 }
        }
        for activity in snapshot.activities where counts.overlaps(activity) {
            var seen: Set<Int32> = []
            for venue in activity.venues where Int(venue) < venueBucket.count && venueBucket[Int(venue)] >= 0 {
                if seen.insert(venueBucket[Int(venue)]).inserted { inRange[venueBucket[Int(venue)], default: 0] += 1 }
            }
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
